// The fixture the late-asks and abandoned-rounds tests share: `mcpbin proxy --http` in front of the hand-written
// faults upstream (test/fixtures/upstreams/faults.ts) over stdio, started once per file, and a legacy session on it over raw HTTP.
import { afterAll, beforeAll } from "bun:test";
import { resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { HttpProcess, sseMessages } from "../http/helpers.ts";
import { serversFile } from "./front.ts";

/** What a Streamable HTTP POST of a JSON-RPC message sends. */
export const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** The messages of an answer: its JSON body, or the events of its SSE stream. */
export const messagesOf = (text: string) => (text.trimStart().startsWith("{") ? [JSON.parse(text)] : sseMessages(text));

/**
 * Starts the proxy before the file's tests and ends it after them.
 * @returns the running proxy (read it inside a test: it is set in beforeAll).
 */
export function faultsProxy(): () => HttpProcess {
  let proxy: HttpProcess | undefined;
  beforeAll(async () => {
    const faults = resolve(ROOT, "test/fixtures/upstreams/faults.ts");
    proxy = await HttpProcess.start([
      BUN,
      resolve(ROOT, "bin/mcpbin.ts"),
      "proxy",
      "--servers",
      serversFile({ up: { command: BUN, args: [faults] } }),
    ]);
  }, 60_000);
  afterAll(() => proxy?.kill());
  return () => proxy!;
}

/**
 * A legacy (2025-06-18) session on `url`, initialized.
 * @param url - the MCP endpoint.
 * @param capabilities - the client capabilities it declares.
 * @returns a function POSTing one message on the session; it resolves to the answer's text.
 */
export async function legacySession(
  url: string,
  capabilities: Record<string, unknown> = {},
): Promise<(body: unknown) => Promise<string>> {
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities, clientInfo: { name: "t", version: "1" } },
  };
  const r = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify(init) });
  const sid = r.headers.get("mcp-session-id")!;
  await r.text();
  const post = async (body: unknown) =>
    (
      await fetch(url, {
        method: "POST",
        headers: { ...HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify(body),
      })
    ).text();
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  return post;
}
