/** @module Discovery of tool modules: the `tools` paths of a config, scanned recursively, in a stable order. */
import { LoaderError } from "./collect.ts";
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, posix, relative, resolve, sep } from "node:path";

/** Where a tool module was found. */
export interface ModuleRef {
  /** The `tools` directory it was found in, relative to the config file, `/`-separated (e.g. `tools/basic`). */
  readonly dir: string;
  /** The module's path inside `dir`, `/`-separated (e.g. `math/add.ts`). */
  readonly file: string;
  /** Absolute path of the module. */
  readonly path: string;
}

const MODULE = /\.(ts|mts|js|mjs)$/;
const SKIPPED = /\.(test|spec)\.[^/]+$|\.d\.m?ts$/;

/** True for a file name a directory scan loads: .ts/.mts/.js/.mjs, not a test, spec or declaration file, not `_x` or `.x`. */
export function isToolModuleName(name: string): boolean {
  return MODULE.test(name) && !SKIPPED.test(name) && !name.startsWith("_") && !name.startsWith(".");
}

function toPosix(p: string): string {
  return sep === "/" ? p : p.split(sep).join("/");
}

/** Code-unit order, the same on every machine and locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function scan(root: string, sub: string, out: string[], seen = new Set<string>()): void {
  // A symlinked directory that leads back to one being scanned is skipped (no endless loop).
  const real = realpathSync(join(root, sub));
  if (seen.has(real)) return;
  seen.add(real);
  for (const entry of readdirSync(join(root, sub), { withFileTypes: true })) {
    const name = entry.name;
    if (name.startsWith(".") || name.startsWith("_") || name === "node_modules") continue;
    const rel = sub === "" ? name : `${sub}/${name}`;
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      const st = statSync(join(root, rel), { throwIfNoEntry: false });
      isDir = st?.isDirectory() ?? false;
      isFile = st?.isFile() ?? false;
    }
    if (isDir) scan(root, rel, out, seen);
    else if (isFile && isToolModuleName(name)) out.push(rel);
  }
}

/**
 * Finds the tool modules named by a config's `tools` paths. A directory is scanned recursively
 * (skipping tests, specs, declaration files, `node_modules` and names starting with `_` or `.`) and
 * its modules are sorted by path in code-unit order; a file is taken as it is. Paths keep the
 * config's order; a module reached twice is kept once, where it was first reached.
 * @param paths - the config's `tools`, relative to `baseDir`.
 * @param baseDir - the config file's directory.
 * @param warn - receives one line per directory that holds no module.
 * @returns the modules, in load order.
 * @throws LoaderError for a path that does not exist.
 */
export function discoverModules(
  paths: readonly string[],
  baseDir: string,
  warn: (message: string) => void,
): ModuleRef[] {
  const out: ModuleRef[] = [];
  const seen = new Set<string>();
  const add = (ref: ModuleRef) => {
    if (seen.has(ref.path)) return;
    seen.add(ref.path);
    out.push(ref);
  };
  for (const p of paths) {
    const abs = resolve(baseDir, p);
    const dir = toPosix(relative(baseDir, abs)) || ".";
    if (!existsSync(abs)) {
      // Skipping it would build a server without those tools, over a working executable.
      throw new LoaderError(`tools path "${p}" does not exist (${abs}); fix the path, or remove it from "tools"`);
    }
    if (statSync(abs).isDirectory()) {
      const files: string[] = [];
      scan(abs, "", files);
      files.sort(compareCodeUnits);
      if (files.length === 0) warn(`tools directory "${p}" holds no tool modules (.ts, .mts, .js, .mjs)`);
      for (const file of files) add({ dir, file, path: join(abs, file) });
    } else {
      add({ dir: posix.dirname(dir), file: posix.basename(dir), path: abs });
    }
  }
  return out;
}
