/** @module A session's tools as the server's own: calls pass through its gate with one deadline (cancelled inside the session when it runs out), and every result says where it ran. */
import { tool } from "../tools/define.ts";
import { logLine } from "../runtime/log-name.ts";
import type { Tool } from "../tools/types.ts";
import { passthroughTool } from "../client/upstream-tools.ts";
import type { CallToolResult, McpClient, UpstreamTool } from "../client/client.ts";
import { OutboundError } from "../server/outbound.ts";
import { MAX_TIMER_MS } from "../shared/option-keys.ts";
import { safeName, SEPARATOR } from "../client/naming.ts";
import type { Gate } from "./gate.ts";
import type { SessionInfo } from "./info.ts";

/** The `_meta` key of a result that ran in a session: `{ id, name, pid, cwd, runtime }`. */
export const SESSION_META = "io.mcpbin/session";

/** One session the server is connected to. */
export interface Connected {
  readonly info: SessionInfo;
  readonly client: McpClient;
  readonly gate: Gate;
  /** Its tools as it listed them. */
  readonly defs: readonly UpstreamTool[];
}

/** `"shop-dev" (pid 1234)`: how messages name a session. */
export function sessionLabel(info: SessionInfo): string {
  return `"${info.name}" (pid ${info.pid})`;
}

/** The short line a result carries so that the model can read where it ran. */
export function whereLine(info: SessionInfo): string {
  return `[ran in session "${info.name}", pid ${info.pid}, ${info.runtime}, in ${info.cwd}]`;
}

/** A failure of the call as the sentence the model reads: what happened and what to do. */
function explain(e: unknown, info: SessionInfo, timeoutMs: number): unknown {
  if (!(e instanceof OutboundError)) return e;
  const who = `session ${sessionLabel(info)}`;
  switch (e.code) {
    case "timeout":
      if (e.message.includes("did not get to the call")) return e;
      return new OutboundError(
        "timeout",
        `${who} did not answer within ${timeoutMs / 1000} s; the call was cancelled inside the session (its ctx.signal aborted) and a late answer is ignored. Ask for less work, or raise sessions.timeoutMs (MCPBIN_SESSION_TIMEOUT_MS)`,
      );
    case "closed":
      return new OutboundError(
        "closed",
        `${who} went away during the call (the program ended or closed its session). Start it again, then call list_sessions`,
      );
    default:
      return e;
  }
}

/** Where a call goes: one session, or (a worker pool) the least busy of several, picked when the call arrives. */
export type Target = () => Connected | undefined;

/**
 * A session's tools as tools of this server. A name one of `reserved` holds becomes `<session>__<tool>`.
 * Each call waits for a turn at the session's gate (a full queue fails at once), then runs with what is
 * left of `timeoutMs` (counted from its arrival); a timeout sends `notifications/cancelled` into the session.
 * Progress, log messages, cancellation and asks pass as for an upstream tool (src/client/upstream-tools.ts).
 * @param defs - the tools as the session listed them.
 * @param prefix - the session's name (for names that collide).
 * @param target - the session a call goes to.
 * @param reserved - names already taken (the server's own tools).
 * @param timeoutMs - per call, ms (0: none).
 * @param keep - which of its tools to offer (e.g. not `evaluate` over HTTP).
 * @param onTimeout - told of a session whose call timed out (a worker pool restarts it).
 * @returns the tools.
 */
export function sessionTools(
  defs: readonly UpstreamTool[],
  prefix: string,
  target: Target,
  reserved: ReadonlySet<string>,
  timeoutMs: number,
  keep: (def: UpstreamTool) => boolean = () => true,
  onTimeout?: (s: Connected) => void,
): Tool[] {
  const out: Tool[] = [];
  const call = async (
    name: string,
    args: Record<string, unknown>,
    opts: Parameters<McpClient["callTool"]>[2] = {},
  ): Promise<CallToolResult> => {
    const started = performance.now();
    const s = target();
    if (!s)
      throw new OutboundError(
        "closed",
        `session "${prefix}" is not running any more. Start it again, then call list_sessions`,
      );
    let release: (() => void) | undefined;
    try {
      release = await s.gate.enter(opts.signal ?? new AbortController().signal, timeoutMs);
      const left = timeoutMs === 0 ? 0 : Math.max(1, Math.round(timeoutMs - (performance.now() - started)));
      const r = await s.client.callTool(name, args, { ...opts, timeoutMs: left });
      const content = Array.isArray(r.content) ? r.content : [];
      const m = typeof r._meta === "object" && r._meta !== null ? (r._meta as Record<string, unknown>) : {};
      const meta = { id: s.info.id, name: s.info.name, pid: s.info.pid, cwd: s.info.cwd, runtime: s.info.runtime };
      return {
        ...r,
        content: [...content, { type: "text", text: whereLine(s.info) }],
        _meta: { ...m, [SESSION_META]: meta },
      };
    } catch (e) {
      if (e instanceof OutboundError && e.code === "timeout" && release) onTimeout?.(s);
      throw explain(e, s.info, timeoutMs);
    } finally {
      release?.();
    }
  };
  // The session's deadline governs; the server-wide one (timeoutMs of serve()) only backs it up.
  const backstop = timeoutMs === 0 ? 0 : Math.min(MAX_TIMER_MS, timeoutMs + 5_000);
  for (const def of defs) {
    if (typeof def?.name !== "string" || !keep(def)) continue;
    const exposed = reserved.has(def.name) ? safeName(`${prefix}${SEPARATOR}${def.name}`) : def.name;
    try {
      const inner = passthroughTool(def, exposed, call);
      out.push(tool({ ...inner.definition, timeoutMs: backstop }) as unknown as Tool);
    } catch (e) {
      logLine(`session "${prefix}": tool ${JSON.stringify(def.name)} left out: ${(e as Error).message}`);
    }
  }
  return out;
}
