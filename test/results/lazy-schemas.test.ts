// Schemas given as functions (`input: () => v.object(...)`): built when first needed; in an executable
// from `mcpbin build` (JSON Schemas recorded at build time) that is the tool's first call, not the start.
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as v from "valibot";
import { tool, ToolDefinitionError } from "../../src/index.ts";
import { compileFixture, McpProcess, spawnPerTest } from "../helpers/proc.ts";

const LAZY = "test/fixtures/servers/lazy.ts";
const spawn = spawnPerTest(LAZY);
let bin: string;
const procs: McpProcess[] = [];
beforeAll(async () => {
  bin = await compileFixture(LAZY, "lazy");
}, 120_000); // compiling takes seconds on a busy 2-core machine; the hook default is 5 s
afterAll(() => {
  for (const p of procs) p.kill();
});

type Result = {
  result: {
    isError?: boolean;
    content: { text: string }[];
    structuredContent?: unknown;
    tools?: { name: string; inputSchema: unknown; outputSchema?: unknown }[];
  };
};

async function session(p: McpProcess) {
  await p.handshake("2025-11-25");
  const list = (await p.request("tools/list", {}, 100, "2025-11-25")) as unknown as Result;
  return list.result.tools!;
}

test("compiled: tools/list comes from the recorded JSON Schemas; each function runs once, on the tool's first call", async () => {
  const p = new McpProcess([bin]);
  procs.push(p);
  const tools = await session(p);
  expect(tools.find((t) => t.name === "lazy_in")!.inputSchema).toEqual({
    type: "object",
    properties: { n: { type: "integer", minimum: 1 }, unit: { type: "string", enum: ["m", "km"], default: "m" } },
    required: ["n"],
  });
  expect(tools.find((t) => t.name === "lazy_out")!.outputSchema).toEqual({
    type: "object",
    properties: { twice: { type: "number" } },
    required: ["twice"],
  });
  expect(p.stderr).toBe("");

  const bad = (await p.request("tools/call", { name: "lazy_in", arguments: { n: 0 } }, 2)) as unknown as Result;
  expect(bad.result.isError).toBe(true);
  expect(bad.result.content[0]!.text).toStartWith("Invalid arguments for tool lazy_in:\nn: ");
  const good = (await p.request("tools/call", { name: "lazy_in", arguments: { n: 3 } }, 3)) as unknown as Result;
  expect(good.result.content[0]!.text).toBe("3 m");
  const out = (await p.request(
    "tools/call",
    { name: "lazy_out", arguments: { n: 4 } },
    4,
    "2025-11-25",
  )) as unknown as Result;
  expect(out.result.structuredContent).toEqual({ twice: 8 });
  // The schemas are built (and logged) before the calls that need them answer; stderr is a separate pipe.
  for (const line of ["built lazy_in input", "built lazy_out input", "built lazy_out output"])
    await p.waitForStderr(line);
  p.closeStdin();
  await p.stderrEnd(); // nothing else was built: stderr is complete once the process has exited
  expect(p.stderr.trim().split("\n").sort()).toEqual([
    "built lazy_in input",
    "built lazy_out input",
    "built lazy_out output",
  ]);
}, 30_000);

test("compiled: a schema function that fails at run time (it depends on the environment) gives an isError result, and the tool does not run", async () => {
  for (const env of [{ LAZY_BREAK: "1" }, { LAZY_BREAK_OUT: "1" }] as Record<string, string>[]) {
    const p = new McpProcess([bin], { env });
    procs.push(p);
    await session(p);
    const r = (await p.request("tools/call", { name: "broken", arguments: {} }, 2, "2025-11-25")) as unknown as Result;
    expect(r.result.isError).toBe(true);
    const what = env.LAZY_BREAK ? "input" : "output";
    expect(r.result.content[0]!.text).toBe(
      `Tool broken cannot run: tool "broken": the ${what} function threw: no ${what} schema today`,
    );
    p.closeStdin();
    expect(await p.stderrEnd()).not.toContain("broken ran"); // all of stderr, once the process has exited
  }
}, 30_000);

/** Starts an executable, opens a session, and returns the text of one call of a tool without arguments. */
async function textOfCall(executable: string, name: string): Promise<string> {
  const p = new McpProcess([executable]);
  procs.push(p);
  await session(p);
  const r = (await p.request("tools/call", { name, arguments: {} }, 2)) as unknown as Result;
  return r.result.content[0]!.text;
}

test("compiled: the executable's module path is named after --outfile (its second, profiled compile included)", async () => {
  expect(await textOfCall(bin, "argv1")).toEndWith("/lazy");
}, 30_000);

test("compiled: the executable runs with --smol (mcpbin build's default)", async () => {
  expect((await textOfCall(bin, "exec_argv")).split(" ")).toContain("--smol");
}, 30_000);

test("from source: the functions run at start (the JSON Schemas are converted there), once each", async () => {
  const p = spawn();
  const tools = await session(p);
  expect(tools.map((t) => t.name)).toEqual(["lazy_in", "lazy_out", "exec_argv", "argv1", "broken"]);
  const r = (await p.request(
    "tools/call",
    { name: "lazy_in", arguments: { n: 2, unit: "km" } },
    2,
  )) as unknown as Result;
  expect(r.result.content[0]!.text).toBe("2 km");
  expect(p.stderr.trim().split("\n").sort()).toEqual([
    "built lazy_in input",
    "built lazy_out input",
    "built lazy_out output",
  ]);
}, 30_000);

test("direct call of a tool with a schema function validates and infers like the schema itself", async () => {
  const t = tool({
    name: "area",
    description: "d",
    input: () => v.object({ w: v.number(), h: v.optional(v.number(), 1) }),
    run: ({ w, h }) => w * h,
  });
  expect(await t({ w: 3 })).toBe(3);
  await expect(t({ w: "3" })).rejects.toThrow("Invalid arguments for tool area:\nw: ");
  expect(t.inputSchema).toEqual({
    type: "object",
    properties: { w: { type: "number" }, h: { type: "number", default: 1 } },
    required: ["w"],
  });
});

test("a schema function that throws or returns something else fails at definition, naming the tool", () => {
  expect(() =>
    tool({
      name: "boom",
      description: "d",
      input: () => {
        throw new Error("no");
      },
      run: () => 1,
    }),
  ).toThrow(new ToolDefinitionError('tool "boom": the input function threw: no'));
  expect(() => tool({ name: "odd", description: "d", input: (() => ({ x: 1 })) as never, run: () => 1 })).toThrow(
    'tool "odd": the input function must return a valibot schema',
  );
  expect(() => tool({ name: "nonobj", description: "d", input: () => v.string() as never, run: () => 1 })).toThrow(
    ToolDefinitionError,
  );
});

test("mcpbin build --no-smol: the executable runs without --smol", async () => {
  const out = `${import.meta.dir}/../../.test-build/lazy-nosmol`;
  const b = Bun.spawn(
    [process.execPath, `${import.meta.dir}/../../bin/mcpbin.ts`, "build", LAZY, "--no-smol", "--outfile", out],
    { stdout: "pipe", stderr: "pipe", cwd: `${import.meta.dir}/../..` },
  );
  expect(await b.exited).toBe(0);
  expect((await textOfCall(out, "exec_argv")).split(" ")).not.toContain("--smol");
}, 120_000);
