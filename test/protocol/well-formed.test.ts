// Only well-formed Unicode leaves the server: lone surrogates in whatever a tool returns or throws become
// U+FFFD, over stdio and over HTTP; surrogate pairs stay.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { McpProcess } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";
import { HttpProcess, META, MODERN } from "../http/helpers.ts";
import { wellFormedLine } from "../../src/protocol/well-formed.ts";

setDefaultTimeout(60_000);
const FIXTURE = "test/fixtures/servers/surrogates.ts";
const strict = new TextDecoder("utf-8", { fatal: true });
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));

const EXPECTED = {
  lone_text: "a\ufffdb\ufffdc \ud83d\ude00",
  // The JSON text of the structured content: the replacement written as an escape, which parses to U+FFFD.
  lone_structured: '{"s":"x\\ufffdy"}',
  lone_thrown: "broken \ufffd here",
};

test("wellFormedLine: lone surrogates, raw or escaped, become U+FFFD; pairs and escaped backslashes stay", () => {
  expect(wellFormedLine(JSON.stringify({ t: "a\ud800" }))).toBe('{"t":"a\\ufffd"}');
  expect(wellFormedLine('{"t":"\\ud83d\\ude00"}')).toBe('{"t":"\\ud83d\\ude00"}');
  expect(wellFormedLine('{"t":"\\\\ud800"}')).toBe('{"t":"\\\\ud800"}');
  expect(wellFormedLine('{"t":"\\\\\\udc00"}')).toBe('{"t":"\\\\\\ufffd"}');
  expect(wellFormedLine("raw \ud800")).toBe("raw \ufffd");
  const plain = '{"t":"ok"}';
  expect(wellFormedLine(plain)).toBe(plain);
  // The fast path (no backslash: returned as is) and the slow one agree at its edges.
  expect(wellFormedLine('{"t":"a\\"b\\n"}')).toBe('{"t":"a\\"b\\n"}');
  expect(wellFormedLine(JSON.stringify({ q: 'say "hi"', t: "x\udbff" }))).toBe('{"q":"say \\"hi\\"","t":"x\\ufffd"}');
  expect(wellFormedLine(JSON.stringify({ t: "\u00e9\ud800" }))).toBe('{"t":"é\\ufffd"}');
  expect(wellFormedLine(JSON.stringify({ t: "é" }))).toBe('{"t":"é"}');
  // The text "\\ud800" (an escaped backslash) right before a lone low surrogate's escape: the escape is lone.
  expect(wellFormedLine(JSON.stringify({ t: "\\ud800\udc00" }))).toBe('{"t":"\\\\ud800\\ufffd"}');
  expect(wellFormedLine(JSON.stringify({ t: "\\UD800\udc00" }))).toBe('{"t":"\\\\UD800\\ufffd"}');
  expect(wellFormedLine(JSON.stringify({ t: "\\ud800\udc00\ud83d\ude00" }))).toBe(
    '{"t":"\\\\ud800\\ufffd\ud83d\ude00"}',
  );
});

test("stdio: an echoed name holding the text \\ud800 before a lone low surrogate arrives with U+FFFD", async () => {
  const p = McpProcess.source(FIXTURE);
  cleanups.push(() => p.kill());
  await p.handshake("2025-11-25");
  p.send('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x\\\\ud800\\udc00","arguments":{}}}');
  const r = await p.response(7);
  expect(r.error.message).toBe("Unknown tool: x\\ud800\ufffd");
  expect(p.lines.some((l) => /(?<!\\)(?:\\\\)*\\ud[c-f]/i.test(l))).toBe(false);
});

test("stdio: text, structured content and a thrown message with lone surrogates arrive as valid UTF-8 with U+FFFD", async () => {
  const p = McpProcess.source(FIXTURE);
  cleanups.push(() => p.kill());
  await p.handshake("2025-11-25");
  const got: Record<string, string> = {};
  let id = 10;
  for (const name of Object.keys(EXPECTED)) {
    const r = await p.request("tools/call", { name, arguments: {} }, id++, "2025-11-25");
    assertValidResponse("2025-11-25", "tools/call", r);
    got[name] = r.result.content[0].text;
    if (name === "lone_structured") expect(r.result.structuredContent).toEqual({ s: "x\ufffdy" });
  }
  expect(got).toEqual(EXPECTED);
  expect(() => strict.decode(p.rawStdout)).not.toThrow();
  expect(p.lines.some((l) => /\\ud[89a-f]/i.test(l))).toBe(false);
});

test("HTTP: the same, in JSON bodies", async () => {
  const h = await HttpProcess.source(FIXTURE);
  cleanups.push(() => h.kill());
  const got: Record<string, string> = {};
  let id = 1;
  for (const name of Object.keys(EXPECTED)) {
    const res = await fetch(h.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
        "mcp-name": name,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: id++,
        method: "tools/call",
        params: { name, arguments: {}, _meta: META },
      }),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = strict.decode(bytes);
    expect(text).not.toMatch(/\\ud[89a-f]/i);
    const msg = JSON.parse(text);
    assertValidResponse(MODERN, "tools/call", msg);
    got[name] = msg.result.content[0].text;
  }
  expect(got).toEqual(EXPECTED);
});

/** Every string in a parsed message, keys included, is well-formed Unicode (no lone surrogate). */
function expectWellFormed(value: unknown): void {
  const bad: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      if (!v.isWellFormed()) bad.push(JSON.stringify(v));
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) (walk(k), walk(x));
  };
  walk(value);
  expect(bad).toEqual([]);
}

// Requests whose answers carry what the fixture's definitions, outputs and the client's own text hold (a
// lone surrogate written as a JSON escape in the request: "\udc00" parses to one).
const LISTINGS: [string, Record<string, unknown>, (r: any) => unknown][] = [
  ["tools/list", {}, (r) => r.result.tools.find((t: any) => t.name === "lone_described")],
  ["prompts/list", {}, (r) => r.result.prompts[0].description],
  ["resources/list", {}, (r) => r.result.resources[0].description],
  ["resources/read", { uri: "note://lone" }, (r) => r.result.contents[0].text],
  ["prompts/get", { name: "lone_prompt" }, (r) => r.result.messages[0].content.text],
  ["tools/call", { name: "lone_described", arguments: { pick: "z\udc00" } }, (r) => r.result.content[0].text], // invalid arguments, echoed
  ["tools/call", { name: "no\udc00such", arguments: {} }, (r) => r.error.message], // -32602, the name echoed
];
const LISTED = [
  {
    name: "lone_described",
    title: "T\ufffditle",
    description: "Desc\ufffdription",
    inputSchema: {
      type: "object",
      properties: { pick: { type: "string", enum: ["a\ufffd", "b"] } },
      required: ["pick"],
    },
  },
  "Pro\ufffdmpt",
  "Res\ufffdource",
  "r\ufffd",
  "p\ufffd",
  'Invalid arguments for tool lone_described:\npick: Invalid type: Expected ("a\ufffd" | "b") but received "z\ufffd"',
  "Unknown tool: no\ufffdsuch",
];

test("stdio: descriptions, titles, enums, resource and prompt text, echoed arguments and error messages, progress messages: U+FFFD, never a lone surrogate", async () => {
  const p = McpProcess.source(FIXTURE);
  cleanups.push(() => p.kill());
  await p.handshake("2025-11-25");
  const got: unknown[] = [];
  let id = 100;
  for (const [method, params, pick] of LISTINGS) {
    const r = await p.request(method, params, id++, "2025-11-25");
    assertValidResponse("2025-11-25", method, r);
    got.push(pick(r));
  }
  expect(got).toEqual(LISTED);
  p.send({
    jsonrpc: "2.0",
    id: 200,
    method: "tools/call",
    params: { name: "lone_progress", arguments: {}, _meta: { progressToken: "t" } },
  });
  const note = await p.waitFor((m) => m.method === "notifications/progress");
  expect(note.params.message).toBe("half\ufffd way");
  await p.response(200);
  expect(() => strict.decode(p.rawStdout)).not.toThrow();
  for (const line of p.lines) expectWellFormed(JSON.parse(line));
});

test("HTTP: the same in JSON bodies and SSE events, and in the transport's own error bodies (header mismatch, legacy session errors)", async () => {
  const h = await HttpProcess.source(FIXTURE);
  cleanups.push(() => h.kill());
  const send = async (
    method: string,
    params: Record<string, unknown>,
    id: number,
    extra: Record<string, string> = {},
  ) => {
    const name =
      typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
    const res = await fetch(h.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": method,
        ...(name !== undefined
          ? { "mcp-name": `=?base64?${Buffer.from(name.toWellFormed()).toString("base64")}?=` }
          : {}),
        ...extra,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method,
        params: { ...params, _meta: { ...META, progressToken: id } },
      }),
    });
    const text = strict.decode(new Uint8Array(await res.arrayBuffer()));
    const messages = (res.headers.get("content-type") ?? "").includes("text/event-stream")
      ? text
          .split("\n")
          .filter((l) => l.startsWith("data: "))
          .map((l) => JSON.parse(l.slice(6)))
      : [JSON.parse(text)];
    for (const m of messages) expectWellFormed(m);
    return { status: res.status, messages };
  };
  const got: unknown[] = [];
  let id = 1;
  for (const [method, params, pick] of LISTINGS) {
    if (method === "tools/call" && String(params.name).includes("\udc00")) {
      // Mcp-Name cannot carry the lone surrogate (its Base64 is of well-formed text), so the header check answers first: a 400 body.
      const r = await send(method, params, id++);
      expect(r.status).toBe(400);
      expect(r.messages[0].error.code).toBe(-32020);
      expect(r.messages[0].error.message).toContain("no\ufffdsuch");
      got.push(LISTED[LISTINGS.findIndex((l) => l[1] === params)]);
      continue;
    }
    const r = await send(method, params, id++);
    assertValidResponse(MODERN, method, r.messages[0]);
    got.push(pick(r.messages[0]));
  }
  expect(got).toEqual(LISTED);
  const streamed = await send("tools/call", { name: "lone_progress", arguments: {} }, 50);
  expect(streamed.messages.map((m: any) => m.method ?? "result")).toEqual(["notifications/progress", "result"]);
  expect(streamed.messages[0].params.message).toBe("half\ufffd way");
  // A legacy session's errors: the unknown tool's -32602 in band, with the name echoed.
  const init = await fetch(h.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  const sid = init.headers.get("mcp-session-id")!;
  const bad = await fetch(h.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "mcp-session-id": sid },
    body: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x\\ud800","arguments":{}}}',
  });
  const body = JSON.parse(strict.decode(new Uint8Array(await bad.arrayBuffer())));
  expectWellFormed(body);
  expect(body.error.message).toBe("Unknown tool: x\ufffd");
});
