/** @module mcpbin read and mcpbin prompt: one resources/read or prompts/get through the real dispatcher, printed as a client would see it. */
import { NEWEST_LEGACY_VERSION } from "../protocol/versions.ts";
import { Session } from "../server/dispatcher.ts";
import type { Registry } from "../server/registry.ts";
import { CliError } from "./errors.ts";
import { renderResult } from "./call.ts";

/**
 * Sends one request the way a client does: a session initialized at the newest legacy version, then
 * the request through the dispatcher (checks and projection included).
 * @returns the result as sent.
 * @throws CliError with the JSON-RPC error's message.
 */
export async function requestOnce(
  registry: Registry,
  command: string,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, any>> {
  const session = new Session(registry, (line) => process.stderr.write(`mcpbin: notification: ${line}\n`));
  const init = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: NEWEST_LEGACY_VERSION,
      capabilities: {},
      clientInfo: { name: `mcpbin-${command}`, version: "1" },
    },
  };
  await session.handleLine(JSON.stringify(init));
  session.handleLine('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  const line = await session.handleLine(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }));
  if (line === undefined) throw new CliError(`${command}: no response`);
  const msg = JSON.parse(line) as { result?: Record<string, any>; error?: { code: number; message: string } };
  if (msg.error) throw new CliError(`${command}: ${msg.error.message} (JSON-RPC error ${msg.error.code})`);
  return msg.result!;
}

/**
 * `key=value` pairs as prompt arguments (values stay strings, as MCP prompt arguments are).
 * @throws CliError on a pair without `=`.
 */
export function parsePairs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const eq = p.indexOf("=");
    if (eq <= 0) throw new CliError(`prompt: arguments are key=value pairs; got ${JSON.stringify(p)}`, 2);
    out[p.slice(0, eq)] = p.slice(eq + 1);
  }
  return out;
}

/** A read result for a person: text contents as they are, a blob as one summary line. */
export function renderContents(result: Record<string, any>): string {
  const out: string[] = [];
  const contents = (result.contents ?? []) as Record<string, any>[];
  for (const c of contents) {
    if (contents.length > 1) out.push(`--- ${c.uri}${c.mimeType ? ` (${c.mimeType})` : ""}`);
    if (typeof c.text === "string") out.push(c.text);
    else
      out.push(
        `[blob ${c.mimeType ?? "application/octet-stream"}, ${Buffer.from(String(c.blob), "base64").byteLength} bytes]`,
      );
  }
  return out.join("\n") + "\n";
}

/** A prompts/get result for a person: each message as `role:` and its content. */
export function renderMessages(result: Record<string, any>): string {
  const out: string[] = [];
  if (typeof result.description === "string") out.push(`# ${result.description}`);
  for (const m of (result.messages ?? []) as Record<string, any>[])
    out.push(`${m.role}: ${renderResult({ content: [m.content] }).trimEnd()}`);
  return out.join("\n") + "\n";
}
