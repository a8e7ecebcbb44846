// The whole repository typechecks under the strict tsconfig.json (bun runs TypeScript without checking it).
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ROOT } from "./helpers/proc.ts";

test("tsc --noEmit -p . reports no errors in src, test, scripts, examples and bin", async () => {
  const tsc = resolve(ROOT, "node_modules/.bin/tsc");
  expect(existsSync(tsc), `${tsc} is missing: run npm ci (typescript is a devDependency)`).toBe(true);
  const proc = Bun.spawn([tsc, "--noEmit", "-p", "."], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  const report = (out + err).trim();
  if (code !== 0) console.error(`tsc --noEmit -p . exited ${code}:\n${report}`);
  expect({ code, report }).toEqual({ code: 0, report: "" });
}, 120_000);
