/** @module resolveUnder(): a resource-template value joined under a base directory, refused when it would leave it (absolute, encoded slash, dot segment, symlink). */
import { ResourceReadError } from "./resource.ts";

type Fs = typeof import("node:fs");
type Path = typeof import("node:path");
// Required on first use, not imported: a static import of a Node built-in is evaluated at every start (docs/benchmarks.md).
let mods: { fs: Fs; path: Path } | undefined;
const node = () => (mods ??= { fs: require("node:fs") as Fs, path: require("node:path") as Path });

/**
 * Joins a value a client chose (a resource-template variable, a tool argument) under a base directory, for
 * reading or writing a file there. Refused, with a {@link ResourceReadError} (-32602 on the wire, the session
 * goes on): an empty value; an absolute path (`/etc/passwd`, `\\server`, `C:\…`: what `files:////etc/passwd`
 * and `%2Fetc%2Fpasswd` become once matched and decoded); a value that still holds an encoded slash or
 * backslash (`%2F`, `%5C`: decoded a second time it would be a separator); a backslash; a NUL; any `.` or `..`
 * segment; and a path whose real location, symlinks followed (of the file, or of its nearest existing parent
 * when it does not exist yet), is outside the base's real location. `path.resolve(base, value)` alone
 * escapes the base with every one of these.
 *
 * A link swapped between this check and the read could still lead out; a base that other users can write to
 * should not be served.
 * @param base - the directory (absolute, or relative to the working directory); it must exist. An empty base
 *   (`process.env.DIR ?? "./x"` with `DIR=""`, as a pasted client configuration sets it) is the server's mistake,
 *   not the client's: it would serve the working directory, so it throws a plain Error instead.
 * @param value - the value, already percent-decoded once (as template variables are).
 * @returns the real absolute path under the base (symlinks resolved when the file exists).
 * @throws ResourceReadError naming the value and why it is refused; Error for an empty base.
 */
export function resolveUnder(base: string, value: string): string {
  const { fs, path } = node();
  const refuse = (why: string): never => {
    throw new ResourceReadError(
      `Invalid params: ${JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value)} ${why}; give a path relative to the served directory`,
      value,
    );
  };
  if (typeof base !== "string" || base === "")
    throw new Error(
      'resolveUnder(): the base directory is empty (an environment variable set to ""?); give the directory to serve, e.g. process.env.NOTES_DIR || "./notes"',
    );
  if (typeof value !== "string" || value === "") refuse("is empty");
  if (value.includes("\0")) refuse("contains a NUL character");
  if (value.startsWith("/") || /^[A-Za-z]:/.test(value)) refuse("is an absolute path, outside the served directory");
  if (value.includes("\\")) refuse("contains a backslash");
  if (/%(2f|5c)/i.test(value)) refuse("contains an encoded slash");
  if (value.split("/").some((s) => s === "." || s === "..")) refuse("contains a dot segment");
  const root = fs.realpathSync(path.resolve(base));
  const joined = path.join(root, value);
  // The real location of the file, or of its nearest existing ancestor plus the rest.
  let probe = joined;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = fs.realpathSync(probe);
      const full = rest.length > 0 ? path.join(real, ...rest.reverse()) : real;
      const rel = path.relative(root, full);
      if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel))
        refuse(
          rel === ""
            ? "names the served directory itself"
            : "leads outside the served directory (through a symbolic link)",
        );
      return full;
    } catch (e) {
      if (e instanceof ResourceReadError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw e;
      let dangling = false;
      try {
        dangling = fs.lstatSync(probe).isSymbolicLink();
      } catch {}
      if (dangling) refuse("is a symbolic link to nothing (writing there would follow it)");
      if (probe === root) refuse("cannot be resolved");
      rest.push(path.basename(probe));
      probe = path.dirname(probe);
    }
  }
}
