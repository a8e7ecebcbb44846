// Files on the user's machine: resolveUnder() joins a resource-template value under a base directory and refuses
// every value that would leave it — an absolute path (`files:////etc/passwd`, `%2Fetc%2Fpasswd` decoded), a
// still-encoded slash, a dot segment, a backslash, a NUL, and a symlink that points out of the base.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveUnder, resourceTemplate, ResourceReadError } from "../../src/index.ts";

let base: string;
let outside: string;
beforeAll(() => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "mcpbin-under-")));
  base = join(root, "notes");
  outside = join(root, "secret");
  mkdirSync(join(base, "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(base, "a.txt"), "a");
  writeFileSync(join(base, "sub", "b.txt"), "b");
  writeFileSync(join(outside, "key"), "hunter2");
  symlinkSync(outside, join(base, "out")); // a link out of the base
  symlinkSync(join(outside, "key"), join(base, "key.txt"));
  symlinkSync(join(base, "sub"), join(base, "inner")); // a link that stays inside
  symlinkSync(join(outside, "not-yet"), join(base, "dangle")); // a link to nothing (yet) outside
});
afterAll(() => rmSync(join(base, ".."), { recursive: true, force: true }));

test("template values stay under the base directory: files inside resolve, links that stay inside too", () => {
  expect(resolveUnder(base, "a.txt")).toBe(join(base, "a.txt"));
  expect(resolveUnder(base, "sub/b.txt")).toBe(join(base, "sub", "b.txt"));
  expect(resolveUnder(base, "inner/b.txt")).toBe(join(base, "sub", "b.txt"));
  expect(resolveUnder(base, "new/file.txt")).toBe(join(base, "new", "file.txt")); // not there yet: still under base
});

test("template values stay under the base directory: absolute paths, encoded slashes, dot segments, backslashes, NUL and symlinks out are refused", () => {
  for (const bad of [
    "/etc/passwd",
    "//etc/passwd",
    "%2Fetc%2Fpasswd",
    "a%2f..%2F..%2Fetc",
    "..",
    "../secret/key",
    "sub/../../secret/key",
    "./a.txt/..",
    "..\\secret\\key",
    "C:\\Windows",
    "a.txt\u0000.png",
    "out/key",
    "key.txt",
    "out",
    "dangle",
    "out/new.txt",
    "",
  ]) {
    expect(() => resolveUnder(base, bad), bad).toThrow(ResourceReadError);
  }
  expect(() => resolveUnder(base, "/etc/passwd")).toThrow(/outside|absolute/);
});

test("template values stay under the base directory: a template reading files refuses files:////etc/passwd and %2Fetc%2Fpasswd with -32602's error", async () => {
  const files = resourceTemplate({
    uriTemplate: "files:///{+path}",
    name: "files",
    read: ({ path }) => Bun.file(resolveUnder(base, path ?? "")).text(),
  });
  expect(await files.read("files:///a.txt")).toEqual([{ uri: "files:///a.txt", text: "a" }]);
  for (const uri of ["files:////etc/passwd", "files:///%2Fetc%2Fpasswd", "files:///out/key", "files:///key.txt"]) {
    await expect(files.read(uri)).rejects.toThrow(ResourceReadError);
  }
});

test('an empty base directory (an environment variable set to "") is the server\'s mistake: a plain Error naming it, never the working directory served', () => {
  expect(() => resolveUnder("", "a.txt")).toThrow("resolveUnder(): the base directory is empty");
  expect(() => resolveUnder("", "a.txt")).not.toThrow(ResourceReadError);
  expect(resolveUnder(base, "a.txt")).toBe(join(base, "a.txt"));
});
