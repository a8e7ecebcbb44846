// stdout isolation below console.* (the kind of B01): what each guard mode covers, checked against the list in docs/reference.md.
import { afterEach, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { McpProcess } from "../helpers/proc.ts";
import { exitWithin, fixtureBin } from "./harness.ts";

const LOUD = ["loud-fs-writesync", "loud-trace", "loud-dir", "loud-table", "loud-stdout-writer", "loud-child"];
/** What the JS-patch fallback cannot reach (docs/reference.md lists the same). */
const PATCH_UNCOVERED = ["loud-fs-writesync", "loud-stdout-writer", "loud-child"];

let bin: string;
setDefaultTimeout(30_000); // bun 1.4.4 ignores bunfig's [test] timeout; these tests run real processes
beforeAll(async () => {
  bin = await fixtureBin();
}, 60_000);

const started: McpProcess[] = [];
afterEach(() => {
  for (const p of started.splice(0)) p.kill(); // also when a test failed before its process exited
});

async function loudSession(env: Record<string, string>) {
  const p = new McpProcess([bin], { env });
  started.push(p);
  await p.handshake("2025-06-18");
  const r = await p.request("tools/call", { name: "loud", arguments: {} }, 2, "2025-06-18");
  expect(r.result.content).toEqual([{ type: "text", text: "done" }]);
  p.closeStdin();
  expect(await exitWithin(p, 5000)).toBe(0);
  return p;
}

describe("stdout guard", () => {
  test("file-descriptor guard: fs.writeSync(1), Bun.stdout.writer(), console.trace/dir/table and child processes land on stderr", async () => {
    const p = await loudSession({});
    expect(p.lines.length).toBe(2);
    for (const line of p.lines) expect(() => JSON.parse(line)).not.toThrow();
    for (const s of LOUD) expect(p.stderr).toContain(s);
  });

  test("JS-patch fallback: console.* is covered; exactly the documented paths are not", async () => {
    const p = await loudSession({ MCPBIN_STDOUT_GUARD: "patch" });
    const stray = p.lines.filter((l) => !l.startsWith('{"jsonrpc"'));
    expect(stray).toEqual(PATCH_UNCOVERED);
    for (const s of LOUD.filter((x) => !PATCH_UNCOVERED.includes(x))) expect(p.stderr).toContain(s);
  });
});
