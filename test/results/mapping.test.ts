// Return value → CallToolResult mappings, structured output checks and payload JSON options, in both eras
// (legacy after initialize at 2025-06-18/2025-11-25, modern 2026-07-28 with params._meta); every response
// is validated against the official schema of its version.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { McpProcess, META } from "../helpers/proc.ts";

const SERVER = "test/results/server.ts";
const MODERN = "2026-07-28";
const ERAS = ["2025-06-18", "2025-11-25", MODERN] as const;
type Era = (typeof ERAS)[number];
type Msg = Record<string, any>;

const procs = new Map<string, McpProcess>();
let nextId = 100;
/** One process per era and payload JSON setting. */
async function open(era: Era, json?: object): Promise<void> {
  const p = McpProcess.source(SERVER, { env: json ? { RESULTS_JSON: JSON.stringify(json) } : {} });
  procs.set(`${era}${json ? JSON.stringify(json) : ""}`, p);
  if (era !== MODERN) await p.handshake(era);
}
const JSON_STRING = { nonFinite: "string", bigint: "number" };
const JSON_ERROR = { nonFinite: "error", bigint: "error" };
beforeAll(async () => {
  await Promise.all(ERAS.flatMap((era) => [open(era), open(era, JSON_STRING), open(era, JSON_ERROR)]));
}, 60_000); // a hook's default limit is 5 s; nine cold starts on a busy 2-core machine can take longer
afterAll(() => {
  for (const p of procs.values()) p.kill();
});

async function call(era: Era, name: string, args: Record<string, unknown> = {}, json?: object): Promise<Msg> {
  const p = procs.get(`${era}${json ? JSON.stringify(json) : ""}`)!;
  const params: Msg = { name, arguments: args };
  if (era === MODERN) params._meta = META;
  const r = await p.request("tools/call", params, nextId++, era);
  expect(r.error).toBeUndefined();
  if (era === MODERN) expect(r.result.resultType).toBe("complete");
  return r.result;
}
const text = (r: Msg) => r.content[0].text as string;
const fields = (r: Msg) =>
  Object.keys(r)
    .filter((k) => k !== "resultType" && k !== "_meta")
    .sort();

for (const era of ERAS) {
  describe(era, () => {
    test("ordinary values become one text block: strings as is, others JSON once", async () => {
      expect((await call(era, "plain_string")).content).toEqual([{ type: "text", text: "héllo\nwörld" }]);
      expect((await call(era, "plain_object")).content).toEqual([{ type: "text", text: '{"b":[1,2],"s":"x"}' }]);
      expect((await call(era, "plain_strings")).content).toEqual([{ type: "text", text: "one\ntwo" }]);
      expect((await call(era, "plain_undefined")).content).toEqual([{ type: "text", text: "{}" }]);
      const r = await call(era, "plain_async");
      expect(r.content).toEqual([{ type: "text", text: "7" }]);
      expect(fields(r)).toEqual(["content"]);
    });

    test("a plain object that looks like an MCP result is an ordinary value", async () => {
      const r = await call(era, "look_alike");
      expect(r.isError).toBeUndefined();
      expect(r.content).toEqual([
        { type: "text", text: '{"content":[{"type":"text","text":"not a result"}],"isError":true}' },
      ]);
    });

    test("payload JSON defaults: BigInt string, NaN/Infinity null, undefined omitted, Date ISO, Map object, Set and typed arrays arrays", async () => {
      expect(JSON.parse(text(await call(era, "special")))).toEqual({
        n: "18446744073709551616",
        small: "5",
        nan: null,
        inf: null,
        d: "1970-01-01T00:00:00.000Z",
        m: { k: 1 },
        s: [1],
        t: [9],
      });
    });

    test("serve({ json }) options apply: nonFinite string, bigint number when safe", async () => {
      expect(JSON.parse(text(await call(era, "special", {}, JSON_STRING)))).toMatchObject({
        n: "18446744073709551616",
        small: 5,
        nan: "NaN",
        inf: "-Infinity",
      });
      // Structured content goes through the same rules: n is now the number 10, which its output schema refuses.
      const r = await call(era, "out_bigint", {}, JSON_STRING);
      expect(r.isError).toBe(true);
      expect(text(r)).toBe(
        "Tool out_bigint returned structured content that does not match its output schema:\nn: Invalid type: Expected string but received 10",
      );
    });

    test("serve({ json }) error mode: a value the options refuse is an isError result naming where it is", async () => {
      const r = await call(era, "special", {}, JSON_ERROR);
      expect(r.isError).toBe(true);
      expect(text(r)).toBe(
        'Tool special returned a value JSON cannot carry: cannot encode the result as JSON at $.n: BigInt values are refused (json.bigint is "error")',
      );
    });

    test("a cycle is an isError result with a clear message", async () => {
      const r = await call(era, "cycle");
      expect(r.isError).toBe(true);
      expect(text(r)).toBe(
        "Tool cycle returned a value JSON cannot carry: cannot encode the result as JSON at $.top.self: the value contains a cycle",
      );
    });

    test("a tool that throws is an isError result with the message; the stack goes to stderr", async () => {
      const r = await call(era, "throws");
      expect(r).toMatchObject({ isError: true, content: [{ type: "text", text: "disk full" }] });
      expect(text(r)).not.toContain(" at ");
      const p = procs.get(era)!;
      await p.waitForStderr(/mcpbin: tool throws threw: Error: disk full\n\s+at /);
    });

    test("B45 data that is not base64 is an isError result", async () => {
      const r = await call(era, "bad_base64");
      expect(r.isError).toBe(true);
      expect(text(r)).toBe("imageContent: data is not base64 (only A-Z a-z 0-9 + / and = padding are allowed)");
    });

    test("toolResult: structuredContent without content gets exactly one JSON text block", async () => {
      const r = await call(era, "sc_only");
      const sc = { a: 1, when: "1970-01-01T00:00:00.000Z" };
      expect(r.content).toEqual([{ type: "text", text: JSON.stringify(sc) }]);
      expect(r.structuredContent).toEqual(sc);
    });

    test("toolResult: explicit content is kept as given, with no fallback added", async () => {
      const r = await call(era, "sc_with_content");
      expect(r.content).toEqual([{ type: "text", text: "summary" }]);
      expect(r.structuredContent).toEqual({ a: 1 });
    });

    test("toolResult: isError results omit structuredContent (its JSON text stands in when there is no content)", async () => {
      const a = await call(era, "sc_error");
      expect(fields(a)).toEqual(["content", "isError"]);
      expect(a.content).toEqual([{ type: "text", text: '{"code":"E42"}' }]);
      const b = await call(era, "error_with_content");
      expect(fields(b)).toEqual(["content", "isError"]);
      expect(b.content).toEqual([{ type: "text", text: "quota exceeded" }]);
    });

    test("toolResult: meta becomes the result's _meta; an embedded blob is sent as is", async () => {
      const r = await call(era, "result_meta");
      expect(r.content).toEqual([{ type: "resource", resource: { uri: "mem://r", blob: "AAEC" } }]);
      expect(r._meta["example.com/k"]).toBe("v");
    });

    test("valibot output: extra keys stripped, mismatch is an isError naming the path, missing structured content refused", async () => {
      const ok = await call(era, "out_result");
      expect(ok.structuredContent).toEqual({ a: 1 });
      expect(ok.content).toEqual([{ type: "text", text: '{"a":1}' }]);
      const nested = await call(era, "out_nested_bad");
      expect(nested.isError).toBe(true);
      expect("structuredContent" in nested).toBe(false);
      expect(text(nested)).toBe(
        'Tool out_nested_bad returned structured content that does not match its output schema:\nlist.1.x: Invalid type: Expected number but received "2"',
      );
      const missing = await call(era, "out_missing");
      expect(missing).toMatchObject({
        isError: true,
        content: [
          { type: "text", text: "Tool out_missing declares an output schema but returned no structuredContent" },
        ],
      });
      // Structured content is encoded under the payload JSON rules before the check.
      expect((await call(era, "out_bigint")).structuredContent).toEqual({ n: "10", at: "1970-01-01T00:00:00.000Z" });
    });

    test("raw outputSchema: checked with the JSON Schema; a mismatch is an isError naming the path", async () => {
      const ok = await call(era, "raw_out", { ok: true });
      expect(ok.structuredContent).toEqual({ items: [{ id: 1 }] });
      expect(JSON.parse(text(ok))).toEqual({ items: [{ id: 1 }] });
      const bad = await call(era, "raw_out", { ok: false });
      expect(bad.isError).toBe(true);
      expect("structuredContent" in bad).toBe(false);
      expect(text(bad)).toBe(
        "Tool raw_out returned structured content that does not match its output schema:\nitems.1.id: must be integer",
      );
    });

    test("raw schemas are advertised normalized, or as written with verbatimSchemas; both are validated", async () => {
      const p = procs.get(era)!;
      const r = await p.request("tools/list", era === MODERN ? { _meta: META } : {}, nextId++, era);
      const byName = new Map<string, Msg>(r.result.tools.map((t: Msg) => [t.name, t]));
      expect(byName.get("raw_in")!.inputSchema).toEqual({
        type: "object",
        properties: { n: { type: "integer", minimum: 1 } },
        required: ["n"],
        additionalProperties: false,
      });
      expect(byName.get("verbatim_in")!.inputSchema).toEqual({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: { n: { $anchor: "num", type: "integer" } },
        properties: { n: { $ref: "#/$defs/n" } },
        required: ["n"],
      });
      expect(text(await call(era, "verbatim_in", { n: 1.5 }))).toBe(
        "Invalid arguments for tool verbatim_in:\nn: must be integer",
      );
      expect(text(await call(era, "verbatim_in", { n: 2 }))).toBe('{"n":2}');
    });

    test("raw inputSchema: arguments are validated, each problem as path: message", async () => {
      const bad = await call(era, "raw_in", { n: 0, x: 1 });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toBe(
        "Invalid arguments for tool raw_in:\nx: unexpected key (not in the schema)\nn: must be >= 1",
      );
      expect(text(await call(era, "raw_in", {}))).toBe("Invalid arguments for tool raw_in:\nn: required");
      expect(text(await call(era, "raw_in", { n: 2 }))).toBe('{"n":2}');
    });
  });
}
