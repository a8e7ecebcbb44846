/** @module Files a resource declares with `file:`: resolved against the declaring module, recorded by the build's check run, embedded in the executable. */
// node:fs, node:path and node:url are required on first use: evaluating them cost ~3 M instructions of every
// server start, and most servers declare no file (docs/benchmarks.md).
const nodeFs = (): typeof import("node:fs") => require("node:fs") as typeof import("node:fs");
const nodePath = (): typeof import("node:path") => require("node:path") as typeof import("node:path");
const fileURLToPath = (url: string | URL): string =>
  (require("node:url") as typeof import("node:url")).fileURLToPath(url);
import { contract } from "../runtime/contract.ts";

/**
 * The build's check run records into the store of recorded schemas (`schemas` of the build contract,
 * src/runtime/contract.ts), under keys with this prefix; an executable finds them in its `files`.
 */
export const FILE_KEY_PREFIX = "file\u0000";

// Node (a session bundle, src/sessions) has no import.meta.dir: nothing there is compiled.
const HERE: string = import.meta.dir ?? "";
/** Inside an executable made by `bun build --compile`, modules live in Bun's embedded file system. */
const COMPILED = HERE.startsWith("/$bunfs/") || HERE.includes("~BUN");

/**
 * The file of the module that called into mcpbin: the first stack frame outside mcpbin's src/ (the
 * module that declares a resource), or undefined when the stack names none (then the working
 * directory is used).
 */
export function callerFile(): string | undefined {
  const stack = new Error().stack ?? "";
  const src = nodePath().resolve(HERE, "..");
  for (const line of stack.split("\n").slice(1)) {
    const m = /\(?((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):\d+:\d+\)?\s*$/.exec(line);
    if (!m) continue;
    const file = m[1]!.startsWith("file://") ? fileURLToPath(m[1]!) : m[1]!;
    if (file.startsWith(src + "/") || file.startsWith(src + "\\")) continue;
    return file;
  }
  return undefined;
}

/** The key of one declared file: the resource's URI and the path as written. */
function fileKey(uri: string, given: string): string {
  return `${uri}\u0000${given}`;
}

/** A file resource's reader: the bytes, read once on first use. */
export interface DeclaredFile {
  /** Absolute path on the build machine (or the embedded path inside an executable). */
  readonly path: string;
  read(): Uint8Array;
}

/**
 * Resolves a `file:` path of a resource: inside an executable, the copy embedded at build time; from
 * source, the path relative to the declaring module (an absolute path or `file:` URL as is). The file
 * must exist now: the build's check run fails on a missing one, naming the resource.
 * @param uri - the resource's URI (for the key and for messages).
 * @param given - the path as written, or a `file:` URL.
 * @param from - the declaring module's file, from {@link callerFile}.
 * @returns the file, read lazily.
 * @throws Error with a message naming the resource and the path looked at.
 */
export function declareFile(uri: string, given: string | URL, from: string | undefined): DeclaredFile {
  const c = contract();
  const written = typeof given === "string" ? given : given.href;
  const key = fileKey(uri, written);
  const recording = c.recordFiles === true;
  const embedded = recording ? undefined : c.files?.get(key);
  let path: string;
  if (embedded !== undefined) path = embedded;
  else if (typeof given !== "string" || given.startsWith("file://")) path = fileURLToPath(given);
  else
    path = nodePath().isAbsolute(given)
      ? given
      : nodePath().resolve(from ? nodePath().dirname(from) : process.cwd(), given);
  if (embedded === undefined) {
    if (COMPILED) {
      throw new Error(
        `the file ${JSON.stringify(written)} was not embedded in this executable; build it with mcpbin build, which embeds the files resources declare`,
      );
    }
    if (!nodeFs().existsSync(path) || !nodeFs().statSync(path).isFile())
      throw new Error(
        `file ${JSON.stringify(written)} not found (looked at ${path}); fix the path (a relative path is resolved against the module that declares the resource)`,
      );
    if (recording) c.schemas?.set(FILE_KEY_PREFIX + key, path);
  }
  let bytes: Uint8Array | undefined;
  return {
    path,
    read: () => (bytes ??= new Uint8Array(nodeFs().readFileSync(path))),
  };
}

/**
 * The JavaScript that embeds recorded files (`import … with { type: "file" }`, so `bun build --compile`
 * puts each in the executable) and installs the key → embedded path map as `files` of the build
 * contract (the generated file binds `contract` from src/runtime/contract.ts).
 * @param recorded - the check run's records; only keys with {@link FILE_KEY_PREFIX} are files (key → absolute path).
 * @returns source lines ("" when there are none), and the records that are not files.
 */
export function embeddedFilesSource(recorded: readonly (readonly [string, string])[]): {
  source: string;
  rest: [string, string][];
} {
  const files = recorded.filter(([k]) => k.startsWith(FILE_KEY_PREFIX));
  const rest = recorded.filter(([k]) => !k.startsWith(FILE_KEY_PREFIX)) as [string, string][];
  if (files.length === 0) return { source: "", rest };
  const lines = files.map(([, path], i) => `import f${i} from ${JSON.stringify(path)} with { type: "file" };`);
  lines.push(
    `contract().files = new Map([${files.map(([key], i) => `[${JSON.stringify(key.slice(FILE_KEY_PREFIX.length))}, f${i}]`).join(", ")}]);`,
  );
  return { source: lines.join("\n") + "\n", rest };
}
