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
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: {}, _meta: META } }),
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
