/** @module The environment variables a server's own code reads, found by reading its source (for `mcpbin bundle`'s user_config and `mcpbin install`'s prompts). */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";

/** One environment variable the author's code reads. */
export interface EnvVar {
  readonly name: string;
  /** True when the name says it holds a secret (KEY, TOKEN, SECRET, PASSWORD, …). */
  readonly sensitive: boolean;
}

/** Variables mcpbin itself and the runtime read: never asked of the user. */
const OURS = /^(MCPBIN_|OTEL_|BUN_|NODE_)|^(NODE_ENV|HOME|PATH|PWD|TMPDIR|USER|SHELL|LANG|TZ)$/;
const SECRET = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|PRIVATE|AUTH|COOKIE|SESSION|PAT$/i;
const MEMBER =
  /\b(?:process\.env|Bun\.env|import\.meta\.env)(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*["'`]([A-Za-z_][A-Za-z0-9_]*)["'`]\s*\])/g;
const DESTRUCTURE = /\{([^{}]*)\}\s*=\s*(?:process\.env|Bun\.env|import\.meta\.env)\b/g;
const SOURCE = /\.(m?[jt]s|[jt]sx|cts|cjs)$/;

/** True when a variable's name says it holds a secret (KEY, TOKEN, SECRET, PASSWORD, …). */
export function isSensitive(name: string): boolean {
  return SECRET.test(name);
}

/**
 * Reads the entry and every module it imports by a relative or absolute path (not packages under
 * node_modules, not mcpbin's own code), and collects the environment variables they read:
 * `process.env.NAME`, `process.env["NAME"]`, `Bun.env.NAME`, `import.meta.env.NAME` and
 * `const { NAME } = process.env`. Names mcpbin and the runtime use (MCPBIN_*, OTEL_*, NODE_ENV, HOME, …)
 * are left out. A name computed at run time cannot be found this way.
 * @param entry - absolute path of a script, or of a generated project entry that imports the tool modules.
 * @returns the variables, sorted by name.
 */
export function scanEnv(entry: string): EnvVar[] {
  const transpiler = new Bun.Transpiler({ loader: "tsx" });
  const own = realpathSync(resolve(import.meta.dir, "..")) + sep;
  const seen = new Set<string>();
  const names = new Set<string>();
  const stack = [resolve(entry)];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    let code: string;
    try {
      code = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const m of code.matchAll(MEMBER)) names.add((m[1] ?? m[2])!);
    for (const m of code.matchAll(DESTRUCTURE)) {
      for (const part of m[1]!.split(",")) {
        const key = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(part.replace(/^\s*\.\.\./, "\u0000"))?.[1];
        if (key) names.add(key);
      }
    }
    let imports: { path: string }[] = [];
    try {
      imports = transpiler.scanImports(code);
    } catch {
      // not a module the transpiler reads: its env reads above still count
    }
    for (const { path } of imports) {
      if (!path.startsWith(".") && !path.startsWith("/")) continue;
      let target: string;
      try {
        target = Bun.resolveSync(path, dirname(file));
      } catch {
        continue;
      }
      if (!SOURCE.test(target) || !existsSync(target)) continue;
      const real = realpathSync(target);
      if (real.includes(`${sep}node_modules${sep}`) || real.startsWith(own)) continue;
      stack.push(real);
    }
  }
  return [...names]
    .filter((n) => !OURS.test(n))
    .sort()
    .map((name) => ({ name, sensitive: isSensitive(name) }));
}
