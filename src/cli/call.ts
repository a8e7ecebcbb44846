/** @module mcpbin call: runs one tool in-process through the real dispatcher and prints what a client would see. */
import { NEWEST_LEGACY_VERSION } from "../protocol/versions.ts";
import { Session } from "../server/dispatcher.ts";
import type { Registry } from "../server/registry.ts";
import { CliError } from "./errors.ts";

/** The outcome of one call: the `tools/call` result as sent, and whether it is an isError result. */
export interface CallOutcome {
  readonly result: Record<string, any>;
  readonly isError: boolean;
}

/**
 * Parses the arguments given on the command line.
 * @param text - a JSON object, or undefined for `{}`.
 * @throws CliError when it is not a JSON object.
 */
export function parseCallArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CliError(`call: the arguments are not valid JSON (${(e as Error).message}); quote them, e.g. '{"x": 1}'`, 2);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new CliError(`call: the arguments must be a JSON object, e.g. '{"x": 1}'`, 2);
  return value as Record<string, unknown>;
}

/**
 * Calls a tool the way a client does: a session initialized at the newest legacy version, one
 * `tools/call` request through the dispatcher (argument validation, timeouts, result shaping and
 * projection included). Progress notifications go to stderr.
 * @param registry - the server.
 * @param name - the tool.
 * @param args - its arguments.
 * @returns the result as sent on the wire.
 * @throws CliError for an unknown tool or another JSON-RPC error.
 */
export async function callTool(registry: Registry, name: string, args: Record<string, unknown>): Promise<CallOutcome> {
  if (!registry.tools.has(name)) {
    throw new CliError(`call: no tool named "${name}"; tools: ${[...registry.tools.keys()].join(", ") || "none"}`);
  }
  const session = new Session(registry, (line) => process.stderr.write(`mcpbin: notification: ${line}\n`));
  const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: NEWEST_LEGACY_VERSION, capabilities: {}, clientInfo: { name: "mcpbin-call", version: "1" } } };
  await session.handleLine(JSON.stringify(init));
  session.handleLine('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  const line = await session.handleLine(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta: { progressToken: "cli" } } }));
  if (line === undefined) throw new CliError(`call: no response from tool "${name}"`);
  const msg = JSON.parse(line) as { result?: Record<string, any>; error?: { code: number; message: string } };
  if (msg.error) throw new CliError(`call: ${msg.error.message} (JSON-RPC error ${msg.error.code})`);
  return { result: msg.result!, isError: msg.result!.isError === true };
}

/**
 * Renders a result for a person: text blocks as they are, other blocks as one summary line each,
 * structured content when it is not already the text.
 */
export function renderResult(result: Record<string, any>): string {
  const out: string[] = [];
  const blocks = (result.content ?? []) as Record<string, any>[];
  for (const b of blocks) {
    if (b.type === "text") out.push(String(b.text));
    else if (b.type === "image" || b.type === "audio") out.push(`[${b.type} ${b.mimeType}, ${Math.floor((String(b.data).length * 3) / 4)} bytes]`);
    else if (b.type === "resource_link") out.push(`[resource link ${b.uri}${b.name ? ` (${b.name})` : ""}]`);
    else if (b.type === "resource") out.push(`[resource ${b.resource?.uri}]${typeof b.resource?.text === "string" ? `\n${b.resource.text}` : ""}`);
    else out.push(JSON.stringify(b));
  }
  if (result.structuredContent !== undefined) {
    const sc = JSON.stringify(result.structuredContent);
    if (!blocks.some((b) => b.type === "text" && b.text === sc)) out.push(`structuredContent: ${sc}`);
  }
  return out.join("\n") + "\n";
}
