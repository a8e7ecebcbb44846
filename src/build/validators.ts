/** @module Raw JSON Schema validators compiled by Ajv at build time (standalone code), so an executable validates raw-schema tools without loading Ajv at start. */
import { dirname, join } from "node:path";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Registry } from "../server/registry.ts";
import { AJV_OPTIONS, rawValidationSchemas, usesJsonSchemaValidation, validatorKey } from "../tools/validate.ts";

const require = createRequire(import.meta.url);
/** Ajv's package folder: the generated code's `require("ajv/dist/runtime/…")` is made absolute, so it resolves from a temporary folder. */
const AJV_DIR = dirname(require.resolve("ajv/package.json"));

/**
 * Compiles every raw JSON Schema the server's tools validate with (src/tools/validate.ts
 * `rawValidationSchemas`) to Ajv standalone code (CommonJS, one module per schema), with the options
 * used at run time.
 * @param registry - the server's registry, built by the check run.
 * @returns key (`validatorKey`) → module source; empty when no tool has a raw schema.
 * @throws whatever Ajv throws for a schema it cannot compile (the check run then leaves validation to run time).
 */
export async function compileValidators(registry: Registry): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let Ajv: typeof import("ajv/dist/2020").default | undefined;
  let standalone: typeof import("ajv/dist/standalone").default | undefined;
  for (const t of registry.tools.values()) {
    if (!usesJsonSchemaValidation(t)) continue;
    for (const s of rawValidationSchemas(t)) {
      const key = validatorKey(s);
      if (key in out) continue;
      Ajv ??= (await import("ajv/dist/2020")).default;
      standalone ??= (await import("ajv/dist/standalone")).default;
      const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
      const code = standalone(ajv, ajv.compile(JSON.parse(key) as object));
      out[key] = code.replace(
        /require\("ajv\/(dist\/runtime\/[^"]+)"\)/g,
        (_, p: string) => `require(${JSON.stringify(join(AJV_DIR, p))})`,
      );
    }
  }
  return out;
}

/**
 * Writes the compiled validators into `dir` (`validator-<i>.cjs`) and returns the lines of the generated entry
 * that install them in the build contract (`contract().validators`, src/runtime/contract.ts).
 * @param dir - the generated entry's temporary folder.
 * @param validators - from {@link compileValidators}.
 * @returns ES module source (imports and one assignment), or "" when there are none.
 */
export function validatorsSource(dir: string, validators: Readonly<Record<string, string>>): string {
  const entries = Object.entries(validators);
  if (entries.length === 0) return "";
  let imports = "";
  const pairs: string[] = [];
  entries.forEach(([key, code], i) => {
    const file = `validator-${i}.cjs`;
    writeFileSync(join(dir, file), code);
    imports += `import v${i} from ${JSON.stringify(`./${file}`)};\n`;
    pairs.push(`[${JSON.stringify(key)}, v${i}]`);
  });
  return `// The validators of its raw JSON Schemas, compiled by Ajv at build time.\n${imports}contract().validators = new Map([${pairs.join(", ")}]);\n`;
}
