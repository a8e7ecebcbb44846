// Raw JSON Schema tools in a built executable validate with validators Ajv compiled at build time (standalone
// code embedded in the executable), so the executable never loads Ajv; from source, Ajv loads as before.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { compileFixture, McpProcess } from "../helpers/proc.ts";

const FIXTURE = "test/fixtures/servers/raw-schemas.ts";
let bin: string;
const procs: McpProcess[] = [];
beforeAll(async () => {
  bin = await compileFixture(FIXTURE, "raw-schemas");
}, 120_000); // compiling takes seconds on a busy 2-core machine
afterAll(() => {
  for (const p of procs) p.kill();
});

type CallResult = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> };

/** Calls every tool of the fixture once (good, bad input, bad output), then the probe. */
async function session(
  p: McpProcess,
): Promise<{ calls: CallResult[]; probe: { ajvLoaded: boolean; embedded: number } }> {
  procs.push(p);
  await p.handshake("2025-11-25");
  const call = async (id: number, name: string, args: unknown) =>
    (await p.request("tools/call", { name, arguments: args }, id, "2025-11-25")).result as CallResult;
  const calls = [
    await call(2, "lookup", { q: "bun", n: 2 }),
    await call(3, "lookup", { q: "b", extra: 1 }),
    await call(4, "bad_output", {}),
  ];
  // The probe has no output schema: its object comes back as JSON text.
  const probe = JSON.parse((await call(5, "probe", {})).content[0]!.text) as { ajvLoaded: boolean; embedded: number };
  return { calls, probe };
}

function expectValidated(calls: CallResult[]): void {
  expect(calls[0]!.isError).toBeUndefined();
  expect(calls[0]!.structuredContent).toEqual({ hits: ["bun0", "bun1"] });
  expect(calls[1]!.isError).toBe(true);
  expect(calls[1]!.content[0]!.text).toStartWith("Invalid arguments for tool lookup:\n");
  expect(calls[1]!.content[0]!.text).toContain("q: must NOT have fewer than 2 characters");
  expect(calls[1]!.content[0]!.text).toContain("extra: unexpected key (not in the schema)");
  expect(calls[2]!.isError).toBe(true);
  expect(calls[2]!.content[0]!.text).toContain("does not match its output schema");
}

test("a built executable validates raw inputSchema/outputSchema with validators compiled at build time, without loading Ajv", async () => {
  const { calls, probe } = await session(new McpProcess([bin]));
  expectValidated(calls);
  expect(probe).toEqual({ ajvLoaded: false, embedded: 4 });
}, 30_000);

test("from source (no build), the same tools validate alike through Ajv loaded at run time", async () => {
  const { calls, probe } = await session(McpProcess.source(FIXTURE));
  expectValidated(calls);
  expect(probe).toEqual({ ajvLoaded: true, embedded: 0 });
}, 30_000);
