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
    throw new CliError(
      `call: the arguments are not valid JSON (${(e as Error).message}); quote them, e.g. '{"x": 1}'`,
      2,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new CliError(`call: the arguments must be a JSON object, e.g. '{"x": 1}'`, 2);
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
export async function callTool(
  registry: Registry,
  name: string,
  args: Record<string, unknown>,
  opts: { task?: boolean } = {},
): Promise<CallOutcome> {
  if (!registry.tools.has(name)) {
    throw new CliError(`call: no tool named "${name}"; tools: ${[...registry.tools.keys()].join(", ") || "none"}`);
  }
  const session = new Session(registry, (line) =>
    process.stderr.write(opts.task ? taskLine(line) : `mcpbin: notification: ${line}\n`),
  );
  const init = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: NEWEST_LEGACY_VERSION,
      capabilities: {},
      clientInfo: { name: "mcpbin-call", version: "1" },
    },
  };
  await session.handleLine(JSON.stringify(init));
  session.handleLine('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  let id = 1;
  const request = async (method: string, params: Record<string, unknown>): Promise<Record<string, any>> => {
    const line = await session.handleLine(JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }));
    if (line === undefined) throw new CliError(`call: no response from tool "${name}"`);
    const msg = JSON.parse(line) as { result?: Record<string, any>; error?: { code: number; message: string } };
    if (msg.error) throw new CliError(`call: ${msg.error.message} (JSON-RPC error ${msg.error.code})`);
    return msg.result!;
  };
  const params: Record<string, unknown> = { name, arguments: args, _meta: { progressToken: "cli" } };
  if (opts.task) params.task = {};
  let result = await request("tools/call", params);
  if (opts.task && result.task) result = await followTask(request, result.task);
  return { result, isError: result.isError === true };
}

/**
 * `call --task`: polls the task (MCP 2025-11-25 tasks/get) at its interval, writing each status change to stderr,
 * then returns `tasks/result` without the related-task `_meta`.
 */
async function followTask(
  request: (method: string, params: Record<string, unknown>) => Promise<Record<string, any>>,
  task: Record<string, any>,
): Promise<Record<string, any>> {
  const id = String(task.taskId);
  process.stderr.write(`mcpbin: task ${id}: ${task.status}\n`);
  let last = `${task.status}`;
  let t = task;
  while (t.status === "working") {
    await Bun.sleep(Math.min(Math.max(Number(t.pollInterval) || 100, 20), 1000));
    t = await request("tasks/get", { taskId: id });
    const now = `${t.status}${t.statusMessage ? ` (${t.statusMessage})` : ""}`;
    if (now !== last) process.stderr.write(`mcpbin: task ${id}: ${now}\n`);
    last = now;
  }
  const r = await request("tasks/result", { taskId: id });
  const { "io.modelcontextprotocol/related-task": _, ...meta } = (r._meta ?? {}) as Record<string, unknown>;
  if (Object.keys(meta).length > 0) r._meta = meta;
  else delete r._meta;
  return r;
}

/** A notification during `call --task`, for a person: progress as `progress 2/3: message`, task status lines left to followTask. */
function taskLine(line: string): string {
  try {
    const m = JSON.parse(line) as { method?: string; params?: Record<string, any> };
    if (m.method === "notifications/progress") {
      const p = m.params!;
      return `mcpbin: progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ""}${p.message ? `: ${p.message}` : ""}\n`;
    }
    if (m.method === "notifications/tasks/status") return "";
  } catch {
    // not JSON: shown as it is
  }
  return `mcpbin: notification: ${line}\n`;
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
    else if (b.type === "image" || b.type === "audio")
      out.push(`[${b.type} ${b.mimeType}, ${Math.floor((String(b.data).length * 3) / 4)} bytes]`);
    else if (b.type === "resource_link") out.push(`[resource link ${b.uri}${b.name ? ` (${b.name})` : ""}]`);
    else if (b.type === "resource")
      out.push(`[resource ${b.resource?.uri}]${typeof b.resource?.text === "string" ? `\n${b.resource.text}` : ""}`);
    else out.push(JSON.stringify(b));
  }
  if (result.structuredContent !== undefined) {
    const sc = JSON.stringify(result.structuredContent);
    if (!blocks.some((b) => b.type === "text" && b.text === sc)) out.push(`structuredContent: ${sc}`);
  }
  return out.join("\n") + "\n";
}
