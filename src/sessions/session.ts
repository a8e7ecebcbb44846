/** @module session(): a running program (a dev server, a REPL, a test runner) offers tools to the AI client's mcpbin server over a per-user Unix socket. The entry `mcpbin/session`; runs in Bun and in Node ≥ 20 (no Bun-only API on this path). */
import { createServer as netServer, type Server, type Socket } from "node:net";
import { chmodSync, realpathSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
// A session answers tools/list and tools/call only: the tools capability registers its methods with the core.
import "../tools/register.ts";
import { Registry } from "../server/registry.ts";
import { Session } from "../server/dispatcher.ts";
import type { Tool } from "../tools/types.ts";
import { ToolDefinitionError } from "../tools/errors.ts";
import { DIR_ENV, endpoint, openSessionDir, SessionDirError, sessionDirPath, WINDOWS } from "./dir.ts";
import { FramedPeer } from "./frame.ts";
import { runtimeName, writeInfo, type SessionInfo } from "./info.ts";
import { evaluateTool, type EvalMode } from "./eval.ts";

/** Set by a server that starts worker sessions (`sessions.workers`): the pool's tag; the worker ends when its stdin closes. */
export const WORKER_ENV = "MCPBIN_SESSION_WORKER";

/** What `session()` takes. */
export interface SessionOptions {
  /** How the session is listed (`A-Z a-z 0-9 _ -`, 1-64), e.g. `shop-dev`. */
  readonly name: string;
  /** The tools, made by `tool()` as for `serve()`; nested arrays are flattened. */
  readonly tools?: readonly (Tool | readonly Tool[])[];
  /** Guidance for the model, shown by `list_sessions`. */
  readonly instructions?: string;
  /**
   * Adds an `evaluate` tool that runs a snippet of JavaScript (opt-in): `true` runs it in this program with
   * `scope` in reach; `"worker"` in a worker thread that a timeout terminates (scope values are copied there:
   * data only, no functions). Never offered over `--http` unless that server sets `sessions.evalOverHttp`.
   */
  readonly eval?: EvalMode;
  /** The values a snippet sees by name (e.g. `{ db, app }`). */
  readonly scope?: Readonly<Record<string, unknown>>;
  /** The session directory; default `$MCPBIN_SESSION_DIR`, `$XDG_RUNTIME_DIR/mcpbin`, `$TMPDIR/mcpbin-<uid>`, `/tmp/mcpbin-<uid>`. */
  readonly dir?: string;
}

/** A running session. */
export interface SessionHandle {
  /** Its id in the directory (`<pid>-<random>`). */
  readonly id: string;
  /** Its socket's path. */
  readonly path: string;
  /** Stops offering the tools: the socket and registration go, connected servers see it leave. Idempotent. */
  close(): Promise<void>;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The signals that end a program by default and after which the session's files are removed. */
const SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** How each open session of this process removes its files. */
const cleanups = new Set<() => void>();

/**
 * Ctrl-C or a kill ends a program without its exit handlers. One listener per signal serves every session of the
 * process: when nothing else of the program listens for the signal, the files go and the signal is raised again,
 * so the program ends as it would have without us; when the program listens itself (a REPL cancels a line on
 * Ctrl-C), it is left alone.
 */
function onSignal(sig: NodeJS.Signals): void {
  if (process.listenerCount(sig) > 1) return;
  for (const c of cleanups) c();
  for (const s of SIGNALS) process.off(s, onSignal);
  process.kill(process.pid, sig);
}

/**
 * Offers tools of this running program to the MCP servers of the same user (`serve({ sessions })`): it
 * listens on `<dir>/<id>.sock` (the directory 0700, every message HMAC-signed under the user's key) and
 * registers `<dir>/<id>.json`. Nothing here keeps the program alive or ends it: the socket is unref'd,
 * a server that goes away only ends its connection, and the files are removed on close() or process exit.
 * @param options - name, tools, eval, scope, dir.
 * @returns the session once it listens.
 * @throws ToolDefinitionError on a bad name or tool; SessionDirError when the directory or key is unsafe.
 */
export async function session(options: SessionOptions): Promise<SessionHandle> {
  const name = (options as { name?: unknown })?.name;
  if (typeof name !== "string" || !NAME.test(name))
    throw new ToolDefinitionError(
      `session(): "name" must be 1-64 of A-Z a-z 0-9 _ - (e.g. "shop-dev"); got ${JSON.stringify(name)}`,
    );
  const tools = [...(options.tools ?? [])];
  if (options.eval !== undefined && options.eval !== false) {
    if (options.eval !== true && options.eval !== "worker")
      throw new ToolDefinitionError(
        `session(): "eval" must be true, "worker" or false; got ${JSON.stringify(options.eval)}`,
      );
    tools.push(evaluateTool(options.eval, options.scope ?? {}));
  }
  const registry = new Registry({ name, version: "session", tools, instructions: options.instructions, timeoutMs: 0 });
  const dir = openSessionDir(options.dir ?? sessionDirPath());
  const id = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const sock = endpoint(dir.path, id);
  // A Unix socket path holds at most 107 bytes on Linux (103 on macOS).
  if (!WINDOWS && Buffer.byteLength(sock) > 103)
    throw new SessionDirError(
      `session(): the socket path ${sock} is longer than a Unix socket allows (103 bytes); set ${DIR_ENV} to a shorter directory`,
    );
  const infoFile = join(dir.path, `${id}.json`);
  const worker = process.env[WORKER_ENV];
  const info: SessionInfo = {
    id,
    name,
    pid: process.pid,
    cwd: realCwd(),
    runtime: runtimeName(),
    started: new Date().toISOString(),
    ...(worker ? { worker } : {}),
  };
  const peers = new Set<FramedPeer>();
  const log = (text: string) => process.stderr.write(`mcpbin session "${name}": ${text}\n`);

  const server: Server = netServer((socket: Socket) => {
    socket.unref();
    let conn: Session | undefined;
    const peer: FramedPeer = new FramedPeer(
      socket,
      dir.key,
      "accept",
      {
        open: () => {
          conn = new Session(registry, (line) => void peer.send(line));
        },
        line: (text) => {
          const reply = conn?.handleLine(text);
          if (typeof reply === "string") peer.send(reply);
          else if (reply !== undefined)
            reply.then(
              (r) => r !== undefined && peer.send(r),
              () => {},
            );
        },
        closed: () => {
          peers.delete(peer);
          if (conn) {
            conn.abortAll("The server that called this session went away; the call was aborted");
            conn.outbound.close("the server went away");
            registry.unwatch(conn);
          }
        },
        dropped: (why) => log(`dropped ${why} (a process without this user's key, or a corrupted line)`),
      },
      info as unknown as Record<string, unknown>,
    );
    peers.add(peer);
  });
  server.on("error", (e) => log(`socket error: ${(e as Error).message}`));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(sock, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.unref();
  if (!WINDOWS) chmodSync(sock, 0o600);
  writeInfo(infoFile, info, dir.key);

  let closed = false;
  const removeFiles = () => {
    for (const f of [infoFile, sock]) {
      try {
        unlinkSync(f);
      } catch {}
    }
  };
  const onExit = () => removeFiles();
  process.on("exit", onExit);
  cleanups.add(removeFiles);
  if (cleanups.size === 1) for (const sig of SIGNALS) process.on(sig, onSignal);
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    process.off("exit", onExit);
    cleanups.delete(removeFiles);
    if (cleanups.size === 0) for (const sig of SIGNALS) process.off(sig, onSignal);
    removeFiles();
    for (const p of peers) p.close();
    await new Promise<void>((r) => server.close(() => r()));
  };
  if (worker) {
    // A worker session lives as long as the server that started it: its stdin closes when that server ends.
    process.stdin.on("end", () => void close().then(() => process.exit(0)));
    process.stdin.on("error", () => void close().then(() => process.exit(0)));
    process.stdin.resume();
  }
  return { id, path: sock, close };
}

/** The working directory as a real path (symlinks resolved), so that a server's and a session's compare equal. */
export function realCwd(): string {
  try {
    return realpathSync(process.cwd());
  } catch {
    return process.cwd();
  }
}
