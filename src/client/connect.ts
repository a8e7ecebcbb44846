/** @module connect(): a started, handshaken client for a command, a URL, or any transport. */
import { McpClient, type ClientOptions } from "./client.ts";
import { httpTransport, type HttpTarget } from "./http.ts";
import { stdioTransport, type StderrMode, type StdioTarget } from "./stdio.ts";
import type { ClientTransport } from "./transport.ts";
import { OutboundError } from "../server/outbound.ts";
import { inMemoryTransport } from "./in-memory.ts";
import { oauthOptionsOf } from "../auth/client-options.ts";
import { oauthFetch } from "../auth/oauth-fetch.ts";
import type { McpServer } from "../server/mcp-server.ts";

/** What {@link connect} reaches: a command (stdio), a URL (Streamable HTTP), or a transport of your own. */
export type ConnectTarget = StdioTarget | HttpTarget | ClientTransport | McpServer;

/** Options of {@link connect}: the protocol's ({@link ClientOptions}) and the transports'. */
export interface ConnectOptions extends ClientOptions {
  /** The server's name in errors and as the prefix of its stderr lines; default the command's file name or the URL. */
  readonly name?: string;
  /** stdio: what the child's stderr becomes (default each line prefixed `[name] ` on our stderr). */
  readonly stderr?: StderrMode;
  /** stdio: more variable names the child inherits from our environment (see INHERITED_ENV). */
  readonly inheritEnv?: readonly string[];
  /** HTTP: the fetch to use. */
  readonly fetch?: typeof fetch;
  /** Aborting it during the handshake ends the connection attempt (the child process ends); the promise rejects "closed". */
  readonly signal?: AbortSignal;
}

/** True for a server made by createServer() (connect() reaches it in this process, src/client/in-memory.ts). */
function isServer(t: ConnectTarget): t is McpServer {
  return typeof (t as McpServer).serve === "function" && typeof (t as McpServer).addTool === "function";
}

function isTransport(t: ConnectTarget): t is ClientTransport {
  return typeof (t as ClientTransport).start === "function" && typeof (t as ClientTransport).send === "function";
}

/** What a value looks like in a message: a string quoted, anything else by its type. */
function shown(x: unknown): string {
  return typeof x === "string" ? JSON.stringify(x) : x === null ? "null" : Array.isArray(x) ? "an array" : typeof x;
}

/**
 * The author's mistakes in a target, said before anything starts: a `command` or `url` that is not a
 * non-empty string (most often an unset environment variable: `command: process.env.X!`), `args` that are
 * not strings.
 * @throws TypeError naming the key, what it must be and what it got.
 */
function checkTarget(target: unknown): void {
  const what =
    "connect(): the target must be {command, args?, env?, cwd?}, {url, headers?}, a transport or a server made by createServer()";
  if (target === null || typeof target !== "object") throw new TypeError(`${what}; got ${shown(target)}`);
  if (isServer(target as ConnectTarget) || isTransport(target as ConnectTarget)) return;
  const t = target as { command?: unknown; url?: unknown; args?: unknown };
  if ("url" in t) {
    if (t.url instanceof URL || (typeof t.url === "string" && t.url !== "")) return;
    throw new TypeError(
      `connect(): "url" must be a non-empty string such as "https://mcp.example.com/mcp"; got ${shown(t.url)} (an unset environment variable?)`,
    );
  }
  if (!("command" in t)) throw new TypeError(`${what}; got an object with neither "command" nor "url"`);
  if (typeof t.command !== "string" || t.command === "")
    throw new TypeError(
      `connect(): "command" must be a non-empty string (the server's executable: an absolute path or a name on PATH); got ${shown(t.command)} (an unset environment variable?)`,
    );
  if (t.args !== undefined && (!Array.isArray(t.args) || t.args.some((a) => typeof a !== "string")))
    throw new TypeError(
      `connect(): "args" must be an array of strings; got ${Array.isArray(t.args) ? `an array holding ${shown(t.args.find((a) => typeof a !== "string"))}` : shown(t.args)}`,
    );
}

/**
 * Connects to an MCP server and completes the handshake: `server/discover` (2026-07-28) when the server
 * speaks it, else `initialize` at the newest legacy version it accepts (MCP 2026-07-28 basic/versioning "Backward Compatibility with Initialization-Based Versions"). A stdio
 * server that exits on the probe (some do on anything before `initialize`) is started once more and
 * initialized. The handshake is bounded by `startTimeoutMs` (default 10 s).
 * @param target - `{command, args?, env?, cwd?}`, `{url, headers?}`, a {@link ClientTransport}, or a server made by
 *   createServer() (in this process, over an in-memory pair: src/client/in-memory.ts).
 * @param opts - see {@link ConnectOptions}.
 * @returns the connected client.
 * @throws OutboundError when the server cannot be started or reached, or its handshake fails or times out (the message names it).
 * @throws TypeError when the target is malformed (a `command` or `url` that is not a non-empty string, `args` not strings).
 */
export async function connect(target: ConnectTarget, opts: ConnectOptions = {}): Promise<McpClient> {
  checkTarget(target);
  // OAuth (src/auth/): one signing-in fetch for every attempt, so a sign-in is not asked twice.
  const httpFetch =
    !isServer(target) && !isTransport(target) && "url" in target && target.auth !== undefined
      ? oauthFetch(target.url, oauthOptionsOf(target.auth), opts.fetch ?? fetch).fetch
      : opts.fetch;
  const make = (): ClientTransport => {
    if (isServer(target)) return inMemoryTransport(target);
    if (isTransport(target)) return target;
    if ("url" in target) return httpTransport(target, { label: opts.name, fetch: httpFetch });
    return stdioTransport(target, { label: opts.name, stderr: opts.stderr, inheritEnv: opts.inheritEnv });
  };
  let current: McpClient | undefined;
  const onAbort = () => void current?.close();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const open = async (c: McpClient) => {
    current = c;
    if (opts.signal?.aborted) throw new OutboundError("closed", `${c.label}: the connection attempt was abandoned`);
    await c.open();
    if (opts.signal?.aborted) throw new OutboundError("closed", `${c.label}: the connection attempt was abandoned`);
  };
  try {
    const first = new McpClient(make(), opts);
    try {
      await open(first);
      return first;
    } catch (e) {
      await first.close().catch(() => {});
      const retry =
        !opts.signal?.aborted &&
        (opts.era ?? "auto") === "auto" &&
        !isTransport(target) &&
        "command" in target &&
        e instanceof OutboundError &&
        e.code === "closed";
      if (!retry)
        throw e instanceof OutboundError || !(e instanceof Error) ? e : new OutboundError("closed", e.message);
      const second = new McpClient(make(), { ...opts, era: "legacy" });
      try {
        await open(second);
        return second;
      } catch (e2) {
        await second.close().catch(() => {});
        throw e2;
      }
    }
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
  }
}
