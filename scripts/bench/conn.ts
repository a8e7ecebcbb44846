// The bench harness's connection to a stdio MCP server: newline-delimited JSON-RPC over a child's pipes, the
// session it opens (initialize, or server/discover at 2026-07-28) and the check of each tools/call result.
import { spawn, type ChildProcess } from "node:child_process";
import type { BenchOptions } from "./options.ts";

export type Msg = {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: any;
  result?: any;
  error?: any;
};

/** A newline-delimited JSON-RPC connection to a child process. */
export class Conn {
  proc: ChildProcess;
  pid: number;
  #buf = "";
  #waiters = new Map<number | string, (m: Msg) => void>();
  onResponse: ((m: Msg) => void) | null = null;
  stderrTail = "";
  exited: Promise<number | null>;
  exitCode: number | null | undefined = undefined;
  protocolErrors: string[] = [];

  constructor(cmd: string[], cwd?: string, env?: Record<string, string>) {
    this.proc = spawn(cmd[0]!, cmd.slice(1), {
      cwd,
      env: env ? { ...process.env, ...env } : process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.pid = this.proc.pid ?? -1;
    this.exited = new Promise((res) => {
      this.proc.on("exit", (code) => ((this.exitCode = code), res(code)));
      this.proc.on(
        "error",
        (e) => (this.protocolErrors.push(`spawn error: ${e.message}`), (this.exitCode = null), res(null)),
      );
    });
    this.proc.stdin!.on("error", () => {});
    this.proc.stdout!.setEncoding("utf8");
    this.proc.stdout!.on("data", (chunk: string) => this.#onData(chunk));
    this.proc.stderr!.setEncoding("utf8");
    this.proc.stderr!.on("data", (c: string) => (this.stderrTail = (this.stderrTail + c).slice(-2000)));
  }

  #onData(chunk: string) {
    this.#buf += chunk;
    let start = 0;
    let nl: number;
    while ((nl = this.#buf.indexOf("\n", start)) !== -1) {
      const line = this.#buf.slice(start, nl);
      start = nl + 1;
      if (line.trim() === "") continue;
      let m: Msg;
      try {
        m = JSON.parse(line);
      } catch {
        this.protocolErrors.push(`non-JSON line on stdout: ${line.slice(0, 120)}`);
        continue;
      }
      this.#dispatch(m);
    }
    this.#buf = this.#buf.slice(start);
  }

  #dispatch(m: Msg) {
    if (typeof m.method === "string") {
      if (m.id !== undefined && m.id !== null) {
        const reply =
          m.method === "ping"
            ? { jsonrpc: "2.0", id: m.id, result: {} }
            : { jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } };
        this.write(JSON.stringify(reply) + "\n");
      }
      return;
    }
    if (this.onResponse) return this.onResponse(m);
    const w = m.id !== undefined && m.id !== null ? this.#waiters.get(m.id) : undefined;
    if (w) {
      this.#waiters.delete(m.id!);
      w(m);
    } else this.protocolErrors.push(`unexpected response id ${JSON.stringify(m.id)}`);
  }

  write(s: string) {
    this.proc.stdin!.write(s);
  }

  request(id: number | string, method: string, params: unknown, timeoutMs: number): Promise<Msg> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.#waiters.delete(id);
        reject(new Error(`timeout waiting for ${method} id=${id}; stderr: ${this.stderrTail.slice(-300)}`));
      }, timeoutMs);
      this.#waiters.set(id, (m) => (clearTimeout(t), resolve(m)));
      this.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  }

  notify(method: string) {
    this.write(JSON.stringify({ jsonrpc: "2.0", method }) + "\n");
  }

  async kill() {
    if (this.exitCode !== undefined) return;
    this.proc.kill("SIGKILL");
    await this.exited;
  }
}

export const CLIENT_INFO = { name: "mcpbin-bench", version: "1.0.0" };
export const MODERN_VERSION = "2026-07-28";
export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  "io.modelcontextprotocol/clientCapabilities": {},
};

export async function openSession(
  c: Conn,
  id: number | string,
  o: BenchOptions,
  timeoutMs: number,
): Promise<string | null> {
  if (o.era === "modern") {
    const r = await c.request(id, "server/discover", { _meta: MODERN_META }, timeoutMs);
    if (r.error || !r.result) throw new Error(`server/discover failed: ${JSON.stringify(r.error ?? r).slice(0, 200)}`);
    const v: string[] = r.result.supportedVersions ?? [];
    if (o.check === "full" && !v.includes(MODERN_VERSION))
      throw new Error(`server/discover: ${MODERN_VERSION} not in ${JSON.stringify(v)}`);
    return v.includes(MODERN_VERSION) ? MODERN_VERSION : (v[0] ?? null);
  }
  const r = await c.request(
    id,
    "initialize",
    { protocolVersion: o.protocolVersion, capabilities: {}, clientInfo: CLIENT_INFO },
    timeoutMs,
  );
  if (r.error || !r.result) throw new Error(`initialize failed: ${JSON.stringify(r.error ?? r).slice(0, 200)}`);
  if (o.check === "full" && typeof r.result.protocolVersion !== "string")
    throw new Error("initialize result has no protocolVersion");
  c.notify("notifications/initialized");
  return r.result.protocolVersion ?? null;
}

export function checkResult(m: Msg, expected: string, mode: "full" | "id"): string | null {
  if (m.error) return `error response: ${JSON.stringify(m.error).slice(0, 200)}`;
  if (!m.result) return "no result";
  if (mode === "id") return null;
  if (m.result.isError) return `isError result: ${JSON.stringify(m.result).slice(0, 200)}`;
  const text = m.result.content?.[0]?.text;
  return text === expected ? null : `wrong result: got ${JSON.stringify(text)} want ${JSON.stringify(expected)}`;
}
