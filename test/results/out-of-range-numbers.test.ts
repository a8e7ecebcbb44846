// A number literal beyond a double's range (`1e400`) parses as ±Infinity, which v.number() takes; the call is
// answered with the invalid-arguments isError result naming the field (as for any argument the schema
// refuses), over stdio and over HTTP, and the session goes on. Finite extremes still pass.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { McpProcess } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";
import { HttpProcess, META, MODERN, modernHeaders } from "../http/helpers.ts";

setDefaultTimeout(60_000);
const FIXTURE = "test/fixtures/servers/fixture.ts";
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));
const TEXT = (field: string) =>
  `Invalid arguments for tool segment:\n${field}: Invalid number: too large for a 64-bit float (it reads as Infinity); send a finite number`;

test("stdio: 1e400 and -1e400 in arguments are isError invalid arguments naming the field; 1.7e308 is a number; the session goes on", async () => {
  const p = McpProcess.source(FIXTURE);
  cleanups.push(() => p.kill());
  await p.handshake("2025-11-25");
  // Raw lines: the literal must reach the server as written.
  p.send(
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"segment","arguments":{"from":{"x":0,"y":0},"to":{"x":1e400,"y":0}}}}',
  );
  p.send(
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"segment","arguments":{"from":{"x":0,"y":-1e400},"to":{"x":0,"y":0}}}}',
  );
  p.send(
    '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"segment","arguments":{"from":{"x":0,"y":0},"to":{"x":1.7e308,"y":0}}}}',
  );
  const [a, b, c] = await Promise.all([p.response(2), p.response(3), p.response(4)]);
  for (const r of [a, b, c]) assertValidResponse("2025-11-25", "tools/call", r);
  expect(a.result).toEqual({ content: [{ type: "text", text: TEXT("to.x") }], isError: true });
  expect(b.result).toEqual({ content: [{ type: "text", text: TEXT("from.y") }], isError: true });
  expect(c.result).toEqual({ content: [{ type: "text", text: "1.7e+308" }] });
});

test("HTTP (2026-07-28): the same answer in the response body", async () => {
  const h = await HttpProcess.source(FIXTURE);
  cleanups.push(() => h.kill());
  const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"segment","arguments":{"from":{"x":0,"y":0},"to":{"x":0,"y":1e400}},"_meta":${JSON.stringify(META)}}}`;
  const res = await fetch(h.url, { method: "POST", headers: modernHeaders("tools/call", "segment"), body });
  expect(res.status).toBe(200);
  const msg = await res.json();
  assertValidResponse(MODERN, "tools/call", msg);
  expect(msg.result.content).toEqual([{ type: "text", text: TEXT("to.y") }]);
  expect(msg.result.isError).toBe(true);
});
