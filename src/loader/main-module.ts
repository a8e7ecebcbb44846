/**
 * @module A script run by mcpbin is the program: its `import.meta.main` reads true, though mcpbin's own
 * entry imports it (`mcpbin build`, `dev`, `list`, `call`, `release` and the build's check run).
 */
import type { BunPlugin } from "bun";

/** `import.meta.main`, not `import.meta.mainX`. */
const MAIN = /\bimport\.meta\.main\b(?!\s*=[^=])/g;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function loaderFor(path: string): "ts" | "tsx" | "js" | "jsx" {
  if (/\.[cm]?ts$/.test(path)) return "ts";
  if (path.endsWith(".tsx")) return "tsx";
  if (path.endsWith(".jsx")) return "jsx";
  return "js";
}

/**
 * The source of a script as mcpbin loads it: each `import.meta.main` reads `true`, as it would with
 * the script started by `bun script.ts` (the idiom `if (import.meta.main) await serve({...})`, which
 * lets tests import the module's tools without serving). Other modules are loaded as they are.
 * @param source - the script's text.
 * @returns the text with each `import.meta.main` read replaced by `true`.
 */
export function asMainSource(source: string): string {
  return source.replace(MAIN, "true");
}

/**
 * A Bun plugin (for `Bun.build` and for `Bun.plugin`) that loads one file through {@link asMainSource}.
 * @param file - the absolute path of the script.
 */
export function mainModulePlugin(file: string): BunPlugin {
  const filter = new RegExp(`^${escapeRegExp(file)}$`);
  return {
    name: "mcpbin-main-module",
    setup(build) {
      build.onLoad({ filter }, async ({ path }) => ({
        contents: asMainSource(await Bun.file(path).text()),
        loader: loaderFor(path),
      }));
    },
  };
}

const registered = new Set<string>();

/**
 * Makes this process load the script through {@link mainModulePlugin} from now on (a runtime plugin);
 * call it before the script is first imported. Registering one file twice is a no-op.
 * @param file - the absolute path of the script.
 */
export function runAsMain(file: string): void {
  if (registered.has(file)) return;
  registered.add(file);
  Bun.plugin(mainModulePlugin(file));
}
