/** @module The client's stdio transport: spawn the server, write lines to its stdin, read lines from its stdout, prefix its stderr. */
import type { Subprocess } from "bun";
import { readLines } from "../transport/line-reader.ts";
import type { ClientTransport, TransportSink } from "./transport.ts";
import { logName } from "../runtime/log-name.ts";

/** The largest message taken from a server by default, bytes (a result over it could not be sent on: maxResultBytes). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Children running now: whatever way this process ends, each gets SIGTERM (an `exit` handler must be synchronous). */
const running = new Set<Subprocess>();
let exitHook = false;
function track(p: Subprocess): void {
  running.add(p);
  void p.exited.then(() => running.delete(p));
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const c of running) c.kill("SIGTERM");
  });
}

/** How to start a server that speaks MCP over stdio (the `mcpServers` entry of Claude Desktop, Cursor, VS Code). */
export interface StdioTarget {
  /** The executable: an absolute path, or a name looked up on the child's PATH. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the allow-listed environment ({@link childEnv}); wins over inherited values. */
  readonly env?: Readonly<Record<string, string>>;
  /** The child's working directory; default ours. */
  readonly cwd?: string;
}

/** What the child's stderr becomes: our stderr with each line prefixed `[label] ` (default), our stderr as is, dropped, or a callback per line. */
export type StderrMode = "prefix" | "inherit" | "ignore" | ((line: string) => void);

/** Options of {@link stdioTransport}. */
export interface StdioOptions {
  /** The label in errors and the stderr prefix; default the command's file name. */
  readonly label?: string;
  readonly stderr?: StderrMode;
  /** More variable names the child inherits from our environment, besides {@link INHERITED_ENV}. */
  readonly inheritEnv?: readonly string[];
  /**
   * Longest line accepted from the server, in bytes: a longer one is dropped while it is read (never held
   * whole), with a note on stderr, and the request it answered fails at once. Default 16 MiB, the limit of
   * a result this server would send on (maxResultBytes).
   */
  readonly maxLineBytes?: number;
  /** How long close() waits for the child to exit after stdin closes, and again after SIGTERM, in ms. Default 2000. */
  readonly exitGraceMs?: number;
}

/**
 * The variables a child inherits from our environment; nothing else is passed but its configured `env`
 * (docs/security.md: no secrets of ours reach a server that did not ask for them by name).
 */
export const INHERITED_ENV: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TERM",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  "TEMP",
  "TMP",
  "XDG_RUNTIME_DIR",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
  // Windows needs these for most programs to start at all.
  "SYSTEMROOT",
  "SystemRoot",
  "WINDIR",
  "COMSPEC",
  "PATHEXT",
  "APPDATA",
  "LOCALAPPDATA",
  "USERPROFILE",
  "PROGRAMDATA",
  "ProgramFiles",
];

/**
 * The environment a child starts with: the allow-listed variables of ours (plus `LC_*`), then `inherit`, then `env`.
 * @param env - the configured variables.
 * @param inherit - more names to take from `from`.
 * @param from - our environment; default `process.env`.
 * @returns a fresh object.
 */
export function childEnv(
  env: Readonly<Record<string, string>> | undefined,
  inherit: readonly string[] = [],
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...INHERITED_ENV, ...inherit]) {
    const v = from[k];
    if (typeof v === "string") out[k] = v;
  }
  for (const k in from) if (k.startsWith("LC_") && typeof from[k] === "string") out[k] = from[k]!;
  if (env) Object.assign(out, env);
  return out;
}

/**
 * A transport to a server run as a child process (MCP basic/transports, stdio): one JSON-RPC message
 * per line on its stdin and stdout. The child's exit closes the transport with an error saying how it ended.
 * @param target - command, args, env, cwd.
 * @param opts - label, stderr handling, env allow-list additions, limits.
 * @returns the transport; nothing is spawned before `start()`.
 */
export function stdioTransport(target: StdioTarget, opts: StdioOptions = {}): ClientTransport {
  const label = opts.label ?? target.command.split(/[\\/]/).pop() ?? target.command;
  const maxLine = opts.maxLineBytes ?? MAX_MESSAGE_BYTES;
  const grace = opts.exitGraceMs ?? 2000;
  let proc: Subprocess<"pipe", "pipe", "pipe"> | undefined;
  let closing = false;
  let closedPromise: Promise<void> | undefined;

  return {
    label,
    async start(sink: TransportSink): Promise<void> {
      try {
        proc = Bun.spawn([target.command, ...(target.args ?? [])], {
          cwd: target.cwd,
          env: childEnv(target.env, opts.inheritEnv),
          stdin: "pipe",
          stdout: "pipe",
          stderr: "pipe",
        });
      } catch (e) {
        throw new Error(`${label}: cannot start ${JSON.stringify(target.command)}: ${(e as Error).message}`);
      }
      const p = proc;
      track(p);
      const out = readLines(
        p.stdout,
        maxLine,
        (l) => {
          if (typeof l === "string") sink.line(l);
          else process.stderr.write(`${logName()}: [${label}] dropped a line over ${maxLine} bytes from the server\n`);
        },
        undefined,
        (head) => sink.oversize?.(new TextDecoder().decode(head), maxLine),
      ).catch(() => {});
      const err = pipeStderr(p.stderr, label, opts.stderr ?? "prefix");
      void Promise.all([p.exited, out, err]).then(([code]) => {
        const how = p.signalCode ? `was ended by ${p.signalCode}` : `exited with code ${code}`;
        sink.closed(closing ? undefined : new Error(`${label}: the server process ${how}`));
      });
    },
    async send(line: string): Promise<void> {
      if (!proc || closing || proc.exitCode !== null || proc.signalCode !== null)
        throw new Error(`${label}: the server process is not running`);
      try {
        const wrote: unknown = await proc.stdin.write(line + "\n");
        const flushed: unknown = await proc.stdin.flush();
        // Bun 1.4.4: once it has seen the pipe break, a write returns true and flush() undefined, and the line is lost.
        if (wrote === true || flushed === undefined) throw new Error("EPIPE: broken pipe");
      } catch (e) {
        // EPIPE: the process is gone (or closed its stdin) though its exit is not seen yet; it is ended now,
        // so its death is known at once (the connection closes and can be made again), not at a later exit.
        proc.kill("SIGKILL");
        throw new Error(`${label}: the server process is not running (${(e as Error)?.message ?? e})`);
      }
    },
    close(): Promise<void> {
      return (closedPromise ??= (async () => {
        closing = true;
        const p = proc;
        if (!p) return;
        try {
          await p.stdin.end();
        } catch {
          // already gone
        }
        if (await exitsWithin(p, grace)) return;
        p.kill("SIGTERM");
        if (await exitsWithin(p, grace)) return;
        p.kill("SIGKILL");
        await p.exited;
      })());
    },
  };
}

/** True when the process exits within `ms` (the timer is cleared either way). */
function exitsWithin(p: Subprocess, ms: number): Promise<boolean> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve(true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p.exited.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** Copies the child's stderr to ours as `mode` says, line by line (a line is capped at 64 KiB). */
async function pipeStderr(stream: ReadableStream<Uint8Array>, label: string, mode: StderrMode): Promise<void> {
  if (mode === "ignore") {
    for await (const _ of stream);
    return;
  }
  if (mode === "inherit") {
    for await (const chunk of stream) process.stderr.write(chunk);
    return;
  }
  await readLines(stream, 64 * 1024, (l) => {
    const text = typeof l === "string" ? l : "(a line over 64 KiB, dropped)";
    if (typeof mode === "function") mode(text);
    else process.stderr.write(`[${label}] ${text}\n`);
  }).catch(() => {});
}
