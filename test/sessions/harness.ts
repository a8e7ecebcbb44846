/** @module Live-session tests: real session programs (Bun and Node), a real server launched by the official SDK v1 client, temp session directories, everything ended after each file. */
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { StreamText } from "../helpers/wait.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const BUN = process.execPath;
export const APP = resolve(ROOT, "test/fixtures/sessions/app.ts");
export const SERVER = resolve(ROOT, "test/fixtures/sessions/server.ts");

const procs = new Set<Subprocess>();
const dirs: string[] = [];
const clients: Client[] = [];
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const p of procs) p.kill("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
// This module is evaluated once per run, so the afterAll above belongs to the first test file that imports it: the
// programs later files start are ended here, when the run ends, instead of being left running.
process.on("exit", () => {
  for (const p of procs) {
    try {
      p.kill("SIGKILL");
    } catch {}
  }
});

/** A fresh temp directory (removed after the file); short, so that socket paths stay under 108 bytes. */
export function tempDir(prefix = "mcpbin-sess-"): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A running program that called session(). */
export interface App {
  readonly proc: Subprocess<"ignore", "pipe", "pipe">;
  readonly out: StreamText;
  readonly err: StreamText;
  /** The session id it printed. */
  readonly id: string;
}

/**
 * Starts a program that calls session() and waits until it says `ready <id>` or `(session <id>)`.
 * @param cmd - the command line.
 * @param cwd - its working directory.
 * @param env - more environment (MCPBIN_SESSION_DIR at least).
 */
export async function startApp(cmd: string[], cwd: string, env: Record<string, string>): Promise<App> {
  const proc = Bun.spawn(cmd, {
    cwd,
    env: { ...process.env, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  procs.add(proc);
  void proc.exited.then(() => procs.delete(proc));
  const out = new StreamText(proc.stdout);
  const err = new StreamText(proc.stderr);
  let text: string;
  try {
    text = await out.waitFor(/(?:ready |\(session )(\d+-[0-9a-f]+)/, 20_000);
  } catch (e) {
    throw new Error(`${(e as Error).message}\nstderr: ${err.text}`);
  }
  const id = /(?:ready |\(session )(\d+-[0-9a-f]+)/.exec(text)![1]!;
  return { proc, out, err, id };
}

/** A fixture session named `name` (Bun), in `cwd`. */
export function startFixture(name: string, cwd: string, dir: string, env: Record<string, string> = {}): Promise<App> {
  return startApp([BUN, APP, name], cwd, { MCPBIN_SESSION_DIR: dir, ...env });
}

/** The SDK client connected to a server process, with what it heard. */
export interface Connected {
  readonly client: Client;
  /** `notifications/tools/list_changed` received so far. */
  listChanged: number;
  /** `notifications/message` params received. */
  readonly logs: unknown[];
  /** The server's stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Launches a server (a command: a compiled executable, or Bun with a script) through the official SDK v1
 * client's stdio transport, in `cwd`, and connects.
 * @param command - absolute path of the executable.
 * @param args - its arguments.
 * @param cwd - where the client launches it (a session in this folder is chosen).
 * @param env - more environment.
 * @param answer - the colour the client answers elicitations with (the client declares elicitation and sampling; a sample is "all orders paid").
 */
export async function launch(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  answer = "teal",
): Promise<Connected> {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (b: Buffer) => (err += b.toString()));
  const client = new Client(
    { name: "sessions-test", version: "1.0.0" },
    { capabilities: { elicitation: {}, sampling: {} } },
  );
  const c: Connected = { client, listChanged: 0, logs: [], stderr: () => err, close: () => client.close() };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void c.listChanged++);
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void c.logs.push(n.params));
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { color: answer } }));
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    role: "assistant",
    content: { type: "text", text: "all orders paid" },
    model: "test-model",
  }));
  await client.connect(transport);
  clients.push(client);
  return c;
}

/** The server fixture from source (`bun test/fixtures/sessions/server.ts`) in `cwd`. */
export function launchServer(cwd: string, dir: string, env: Record<string, string> = {}): Promise<Connected> {
  return launch(BUN, [SERVER], cwd, { MCPBIN_SESSION_DIR: dir, ...env });
}

/** The text blocks of a result, joined by newlines. */
export function text(r: unknown): string {
  return (((r as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}

/** Tool names the server lists now. */
export async function toolNames(c: Connected): Promise<string[]> {
  return (await c.client.listTools()).tools.map((t) => t.name);
}

/**
 * Polls until `check` returns a value that is not undefined/false.
 * @param what - said in the error.
 */
export async function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}
