/** @module docs/testing.md: the guide's server and its test file, run with `bun test` in a project as written; the server also built and driven by the official SDK client. */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BUN } from "../helpers/proc.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { buildExample, removeExamples } from "./examples.ts";

setDefaultTimeout(120_000);
afterAll(removeExamples);

test("bun test passes on the guide's test file; the built server answers the SDK client", async () => {
  const { dir, bin } = await buildExample("testing", ["server.ts", "--outfile", "dist/hub"], "dist/hub");
  const run = Bun.spawn([BUN, "test", "server.test.ts"], { cwd: dir, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, err] = await Promise.all([run.exited, new Response(run.stderr).text()]);
  expect({ code, err }).toMatchObject({ code: 0, err: expect.stringContaining(" 2 pass") });

  const t = new StdioClientTransport({ command: bin, args: [], stderr: "pipe" });
  tap(t as unknown as Transport);
  const c = new Client({ name: "guide-reader", version: "1.0.0" });
  await c.connect(t);
  try {
    expect((await c.callTool({ name: "search", arguments: { q: "y" } })).content).toEqual([
      { type: "text", text: "results for y" },
    ]);
  } finally {
    await c.close();
  }
});
