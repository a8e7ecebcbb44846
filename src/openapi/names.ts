/** @module Tool names for operations: operationId or method_path, snake_case, ≤ 64 characters, stable, unique. */
import { TOOL_NAME } from "../tools/name.ts";

/** Longest name kept as is; a longer one is cut here and given an 8-hex-digit hash of the whole name. */
export const NAME_CUT = 48;

/** FNV-1a, 32 bits, as 8 hex digits: the same for the same name on every run and platform. */
export function stableHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/**
 * snake_case of an operationId or a path: camelCase split, anything outside A-Z a-z 0-9 becomes `_`,
 * runs of `_` collapse, lower case.
 * @example snakeCase("findPetsByStatus") === "find_pets_by_status"; snakeCase("repos/get-content") === "repos_get_content"
 */
export function snakeCase(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
}

/**
 * The name an operation gets before collisions: `x-mcp-name` or a configured name as given, else
 * snake_case of the operationId, else `<method>_<path>` (`get_pets_pet_id`); cut at {@link NAME_CUT}
 * characters plus `_` and a stable hash of the full name when longer.
 */
export function baseName(method: string, path: string, operationId: string | undefined): string {
  const raw = operationId && operationId.trim() !== "" ? snakeCase(operationId) : snakeCase(`${method}_${path}`);
  const name = raw === "" ? `${method.toLowerCase()}_root` : raw;
  return name.length <= NAME_CUT ? name : `${name.slice(0, NAME_CUT).replace(/_+$/, "")}_${stableHash(name)}`;
}

/**
 * Makes names unique in order: the second `list` becomes `list_2`, the third `list_3`.
 * @returns a function giving each wanted name its unique form.
 */
export function uniqueNames(): (wanted: string) => string {
  const used = new Set<string>();
  return (wanted) => {
    let name = wanted;
    for (let i = 2; used.has(name); i++) name = `${wanted.slice(0, 60)}_${i}`;
    used.add(name);
    return name;
  };
}

/** True when a name is one every client accepts (the rule of tool()). */
export function validName(name: string): boolean {
  return TOOL_NAME.test(name);
}
