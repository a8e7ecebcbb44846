// Memory under a slow HTTP client: ten SSE streams nobody reads while their calls send 200,000 progress
// notifications each. The server's peak RSS stays bounded (each stream holds at most its high-water mark;
// progress waiting beyond it is coalesced, latest wins); then the client reads every stream, and each
// ends with the last progress and the result.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { HttpProcess, META, MODERN } from "./helpers.ts";
import { peakRssMiB, settled } from "../helpers/proc-stats.ts";
import { assertValidNotification, assertValidResponse } from "../helpers/schema.ts";

setDefaultTimeout(120_000);
let server: HttpProcess | undefined;
afterAll(() => server?.proc.kill());

/** The body of a chunked HTTP/1.1 response, de-chunked. */
function dechunk(raw: string): string {
  const at = raw.indexOf("\r\n\r\n");
  let rest = raw.slice(at + 4);
  let body = "";
  for (;;) {
    const eol = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) return body;
    body += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

test("SSE streams a client does not read: bounded server memory (main: 611 MiB); then each stream ends with its last progress and its result", async () => {
  server = await HttpProcess.source("test/fixtures/servers/slow-client.ts");
  const url = new URL(server.url);
  const n = 200_000;
  const sockets: Socket[] = [];
  for (let i = 1; i <= 10; i++) {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: i,
      method: "tools/call",
      params: { name: "chatty", arguments: { n }, _meta: { ...META, progressToken: `t${i}` } },
    });
    const s = connect(Number(url.port), url.hostname);
    s.pause(); // the client does not read
    s.write(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `MCP-Protocol-Version: ${MODERN}\r\nMcp-Method: tools/call\r\nMcp-Name: chatty\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    sockets.push(s);
  }
  const started = () => (server!.stderr.match(/^started chatty$/gm) ?? []).length;
  await settled(server.proc.pid, started);
  expect(started()).toBe(10);
  expect(peakRssMiB(server.proc.pid)).toBeLessThan(200);

  const texts = await Promise.all(
    sockets.map(
      (s) =>
        new Promise<string>((resolve, reject) => {
          const parts: Buffer[] = [];
          s.on("data", (d: Buffer) => parts.push(d));
          s.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
          s.on("error", reject);
          s.resume();
        }),
    ),
  );
  texts.forEach((raw, k) => {
    expect(raw).toStartWith("HTTP/1.1 200");
    const events = dechunk(raw)
      .split("\n\n")
      .filter(Boolean)
      .map((e) =>
        JSON.parse(
          e
            .split("\n")
            .find((l) => l.startsWith("data: "))!
            .slice(6),
        ),
      );
    const result = events.at(-1)!;
    expect(result.id).toBe(k + 1);
    assertValidResponse(MODERN, "tools/call", result);
    expect(result.result.content).toEqual([{ type: "text", text: `sent ${n}` }]);
    const progress = events.slice(0, -1);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThan(n); // coalesced while not read
    const values = progress.map((m) => m.params.progress);
    expect(values.at(-1)).toBe(n);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    assertValidNotification(MODERN, "ProgressNotification", progress.at(-1));
  });
});
