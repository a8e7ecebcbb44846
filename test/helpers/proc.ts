/** @module A real server process over real pipes, for tests: write lines or raw bytes, read responses by id. */
import { afterEach } from "bun:test";
import type { Subprocess } from "bun";
import { resolve } from "node:path";
import { assertValidResponse } from "./schema.ts";
import { within } from "./wait.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const BUN = process.execPath;

/** Builds the JSON of an initialize request. */
export function initLine(version = "2025-06-18", id: number | string = 1): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "test", version: "1" } },
  });
}
export const INITED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
/** The modern `_meta` claim for 2026-07-28. */
export const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

type Msg = Record<string, any>;

/** Every server process a test started that has not exited yet (see {@link killLeftovers}). */
const LIVE = new Set<McpProcess>();

/**
 * Kills every {@link McpProcess} still running. The preload (test/helpers/timeout.ts) calls it after the
 * run, so a test that fails before its own clean-up leaves no server behind; files that start one per
 * test also kill theirs after each test ({@link spawnPerTest}, robustness/harness.ts `killAfterEach`).
 * @returns how many were killed.
 */
export function killLeftovers(): number {
  const n = LIVE.size;
  for (const p of [...LIVE]) p.kill();
  LIVE.clear();
  return n;
}

/** One spawned server. Every stdout line must parse as JSON; the tests check that through {@link lines}. */
export class McpProcess {
  readonly proc: Subprocess<"pipe", "pipe", "pipe">;
  /** Every stdout line so far, raw. */
  readonly lines: string[] = [];
  /** Every parsed stdout message so far. */
  readonly messages: Msg[] = [];
  stderr = "";
  readonly exited: Promise<number>;
  /** Resolves with all of stderr once the process closed it (it exited): the marker after which nothing more can be written there. */
  readonly stderrEnded: Promise<string>;
  #waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  readonly #raw: Uint8Array[] = [];
  /** Bytes of stdout seen so far, for checks on raw framing. */
  get rawStdout(): Uint8Array {
    return Buffer.concat(this.#raw);
  }

  constructor(cmd: string[], opts: { env?: Record<string, string>; cwd?: string } = {}) {
    this.proc = Bun.spawn(cmd, {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ...opts.env },
      cwd: opts.cwd ?? ROOT,
    }) as never;
    this.exited = this.proc.exited;
    LIVE.add(this);
    void this.exited.then(() => LIVE.delete(this));
    void this.#readStdout();
    this.stderrEnded = this.#readStderr().then(() => this.stderr);
  }

  /** Spawns a TypeScript server from source with the test's Bun. */
  static source(file: string, opts?: { env?: Record<string, string> }): McpProcess {
    return new McpProcess([BUN, resolve(ROOT, file)], opts);
  }

  async #readStdout() {
    const dec = new TextDecoder();
    let buf = "";
    for await (const chunk of this.proc.stdout) {
      this.#raw.push(chunk);
      const text = dec.decode(chunk, { stream: true });
      // Search only the new text for LF, so a multi-MiB line arriving in small chunks stays linear.
      let nl = text.indexOf("\n");
      if (nl === -1) {
        buf += text;
        continue;
      }
      let start = 0;
      buf += text.slice(0, nl);
      do {
        this.#line(buf);
        start = nl + 1;
        nl = text.indexOf("\n", start);
        buf = nl === -1 ? "" : text.slice(start, nl);
      } while (nl !== -1);
      buf = text.slice(start);
    }
    if (buf) this.lines.push(buf);
  }

  #line(line: string) {
    this.lines.push(line);
    let m: Msg;
    try {
      m = JSON.parse(line);
    } catch {
      m = { __unparsable: line };
    }
    this.messages.push(m);
    if (this.#waiters.length === 0) return;
    for (const w of [...this.#waiters]) {
      if (w.pred(m)) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  }

  #stderrWaiters: { pattern: RegExp | string; resolve: () => void }[] = [];

  async #readStderr() {
    const dec = new TextDecoder();
    for await (const chunk of this.proc.stderr) {
      this.stderr += dec.decode(chunk, { stream: true });
      if (this.#stderrWaiters.length === 0) continue;
      for (const w of [...this.#stderrWaiters]) {
        if (matches(this.stderr, w.pattern)) {
          this.#stderrWaiters.splice(this.#stderrWaiters.indexOf(w), 1);
          w.resolve();
        }
      }
    }
  }

  /**
   * Waits until stderr (all of it so far) contains `pattern`, bounded by `timeoutMs`.
   * @returns the stderr text at that moment.
   */
  waitForStderr(pattern: RegExp | string, timeoutMs = 10_000): Promise<string> {
    if (matches(this.stderr, pattern)) return Promise.resolve(this.stderr);
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () =>
          reject(new Error(`timed out waiting for ${pattern} on stderr; stderr so far:\n${this.stderr.slice(-2000)}`)),
        timeoutMs,
      );
      this.#stderrWaiters.push({ pattern, resolve: () => (clearTimeout(t), resolve(this.stderr)) });
    });
  }

  /**
   * Waits until the process has closed stderr (it exited), bounded by `timeoutMs`: for a check that
   * something was never written there.
   * @returns all of stderr.
   */
  stderrEnd(timeoutMs = 10_000): Promise<string> {
    return within(this.stderrEnded, timeoutMs, "the end of stderr");
  }

  /** Writes one message (object or raw line) plus LF. */
  send(msg: Msg | string): void {
    this.write(typeof msg === "string" ? msg + "\n" : JSON.stringify(msg) + "\n");
  }

  /** Writes raw text or bytes. */
  write(data: string | Uint8Array): void {
    this.proc.stdin.write(data);
    this.proc.stdin.flush();
  }

  /** Waits for the first message matching `pred` (already received or future). */
  waitFor(pred: (m: Msg) => boolean, timeoutMs = 10_000): Promise<Msg> {
    const have = this.messages.find(pred);
    if (have) return Promise.resolve(have);
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () =>
          reject(
            new Error(
              `timed out waiting; stdout so far:\n${this.lines.join("\n").slice(0, 2000)}\nstderr:\n${this.stderr.slice(0, 2000)}`,
            ),
          ),
        timeoutMs,
      );
      this.#waiters.push({ pred, resolve: (m) => (clearTimeout(t), resolve(m)) });
    });
  }

  /** Waits for the response to `id`. */
  response(id: unknown, timeoutMs?: number): Promise<Msg> {
    return this.waitFor((m) => "id" in m && m.id === id && ("result" in m || "error" in m), timeoutMs);
  }

  /**
   * Sends a request and returns its response, validated against the official schema of `version`
   * when given.
   */
  async request(method: string, params: unknown, id: number | string, version?: string): Promise<Msg> {
    const msg: Msg = { jsonrpc: "2.0", id, method };
    if (params !== undefined) msg.params = params;
    this.send(msg);
    const r = await this.response(id);
    if (version) assertValidResponse(version, method, r);
    return r;
  }

  /** Sends initialize + initialized; returns the initialize result. */
  async handshake(version = "2025-06-18"): Promise<Msg> {
    this.send(initLine(version, 1));
    const r = await this.response(1);
    assertValidResponse(version, "initialize", r);
    this.send(INITED);
    return r.result;
  }

  closeStdin(): void {
    this.proc.stdin.end();
  }

  kill(): void {
    try {
      this.proc.kill("SIGKILL");
    } catch {}
  }
}

function matches(text: string, pattern: RegExp | string): boolean {
  return typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
}

/** Compiles a TypeScript entry with `mcpbin build` into a temp dir; returns the absolute path. */
export async function compileFixture(entry: string, name: string): Promise<string> {
  const dir = resolve(ROOT, ".test-build");
  const out = resolve(dir, name);
  const p = Bun.spawn([BUN, resolve(ROOT, "bin/mcpbin.ts"), "build", resolve(ROOT, entry), "--outfile", out], {
    stdout: "pipe",
    stderr: "pipe",
    cwd: ROOT,
  });
  const code = await p.exited;
  if (code !== 0) throw new Error(`build failed: ${await new Response(p.stderr).text()}`);
  return out;
}

/** The shared fixture server (../shared/cases/real-world.md tools), served from source. */
export const FIXTURE = "test/fixtures/servers/fixture.ts";

/**
 * A spawner for test files that start servers from source: each call starts one, and every process
 * started during a test is killed after it (registers an `afterEach` in the calling file).
 */
export function spawnPerTest(
  defaultFile = FIXTURE,
): (file?: string, opts?: { env?: Record<string, string> }) => McpProcess {
  const procs: McpProcess[] = [];
  afterEach(() => {
    for (const p of procs.splice(0)) p.kill();
  });
  return (file = defaultFile, opts) => {
    const p = McpProcess.source(file, opts);
    procs.push(p);
    return p;
  };
}
