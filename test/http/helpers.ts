// Test helpers for the HTTP transport: a real server process on a free loopback port, raw POSTs, and a
// fetch that validates every JSON-RPC response an SDK client receives against the official schema.
import type { Subprocess } from "bun";
import { resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { StreamText } from "../helpers/wait.ts";
import { assertValidNotification, assertValidRequest, assertValidResponse } from "../helpers/schema.ts";

const ASK_DEFS: Record<string, string> = {
  "elicitation/create": "ElicitRequest",
  "sampling/createMessage": "CreateMessageRequest",
  "roots/list": "ListRootsRequest",
};

export const MODERN = "2026-07-28";
export const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A server process serving HTTP; `url` is read from its "MCP over HTTP at …" stderr line. */
export class HttpProcess {
  url = "";
  readonly exited: Promise<number>;
  readonly #ready: Promise<unknown>;
  readonly #stderr: StreamText;

  constructor(readonly proc: Subprocess<"ignore", "pipe", "pipe">) {
    this.exited = proc.exited;
    this.#stderr = new StreamText(proc.stderr);
    this.#ready = this.#stderr
      .waitFor(/MCP over HTTP at (\S+)/, 15_000)
      .then((text) => (this.url = /MCP over HTTP at (\S+)/.exec(text)![1]!));
  }

  /** Everything the server wrote on stderr so far. */
  get stderr(): string {
    return this.#stderr.text;
  }

  /**
   * Waits until stderr from offset `from` on (default: all of it) contains `pattern`, bounded by `timeoutMs`.
   * @returns the stderr text at that moment.
   */
  waitForStderr(pattern: RegExp | string, timeoutMs = 10_000, from = 0): Promise<string> {
    return this.#stderr.waitFor(pattern, timeoutMs, from);
  }

  /** Spawns `cmd` (executable or [bun, script]) with `--http 127.0.0.1:0` and waits until it listens. */
  static async start(
    cmd: string[],
    opts: { env?: Record<string, string>; args?: string[] } = {},
  ): Promise<HttpProcess> {
    const p = Bun.spawn([...cmd, ...(opts.args ?? ["--http", "127.0.0.1:0"])], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      cwd: ROOT,
      env: { ...process.env, MCPBIN_HTTP_TOKEN: "", ...opts.env },
    });
    const h = new HttpProcess(p as never);
    await h.#ready;
    return h;
  }

  /** Spawns a TypeScript server from source. */
  static source(file: string, opts?: { env?: Record<string, string>; args?: string[] }): Promise<HttpProcess> {
    return HttpProcess.start([BUN, resolve(ROOT, file)], opts);
  }

  /** The origin (scheme://host:port) of the endpoint. */
  get origin(): string {
    return new URL(this.url).origin;
  }

  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    try {
      this.proc.kill(signal);
    } catch {}
  }
}

/** Standard headers of a modern request for `method` (and `Mcp-Name` when given). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  const h: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
  };
  if (name !== undefined) h["mcp-name"] = name;
  return h;
}

/** POSTs one JSON body (object or raw string) and returns status, headers and parsed JSON (or text). */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Headers; json: any; text: string }> {
  const r = await fetch(url, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  const text = await r.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: r.status, headers: r.headers, json, text };
}

/** Parses an SSE body into its `data:` messages. */
export function sseMessages(text: string): any[] {
  return text
    .split("\n\n")
    .map((ev) =>
      ev
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n"),
    )
    .filter((d) => d !== "")
    .map((d) => JSON.parse(d));
}

/**
 * A fetch for SDK transports that checks every JSON-RPC message the server sends back (JSON or SSE)
 * against the official schema of the version in force: the `_meta` version for modern requests,
 * else the version the session's initialize negotiated. `checked` counts validated responses.
 */
export function validatingFetch(): {
  fetch: typeof fetch;
  checked: { responses: number; notifications: number; requests: number; statuses: number[] };
} {
  let legacyVersion: string | undefined;
  const checked = { responses: 0, notifications: 0, requests: 0, statuses: [] as number[] };
  const f = async (input: any, init?: any): Promise<Response> => {
    const res = await fetch(input, init);
    checked.statuses.push(res.status);
    if (init?.method !== "POST" || typeof init.body !== "string") return res;
    const sent = JSON.parse(init.body);
    if (Array.isArray(sent) || sent.id === undefined) return res;
    const type = res.headers.get("content-type") ?? "";
    const modern = sent.params?._meta?.["io.modelcontextprotocol/protocolVersion"] !== undefined;
    const check = (m: any) => {
      if (m.id === sent.id) {
        if (sent.method === "initialize" && m.result) legacyVersion = m.result.protocolVersion;
        const version = modern ? MODERN : (legacyVersion ?? sent.params?.protocolVersion);
        assertValidResponse(version, sent.method, m);
        checked.responses++;
      } else if (m.id !== undefined && typeof m.method === "string" && ASK_DEFS[m.method]) {
        // A server → client request on the call's stream (legacy elicitation, sampling, roots).
        assertValidRequest(legacyVersion!, ASK_DEFS[m.method]!, m);
        checked.requests++;
      } else if (m.method === "notifications/progress") {
        assertValidNotification(modern ? MODERN : legacyVersion!, "ProgressNotification", m);
        checked.notifications++;
      }
    };
    if (type.includes("text/event-stream") && res.body) {
      // Each event is checked as it passes, before the client reads it: a stream that waits for the
      // client's answer to a request on it (legacy elicitation) must not be read to its end first.
      const dec = new TextDecoder();
      let buf = "";
      const events = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctl) {
          buf += dec.decode(chunk, { stream: true });
          for (let i = buf.indexOf("\n\n"); i !== -1; i = buf.indexOf("\n\n")) {
            for (const m of sseMessages(buf.slice(0, i + 2))) check(m);
            buf = buf.slice(i + 2);
          }
          ctl.enqueue(chunk);
        },
        flush() {
          for (const m of sseMessages(buf)) check(m);
        },
      });
      return new Response(res.body.pipeThrough(events), {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    }
    if (type.includes("application/json")) check(JSON.parse(await res.clone().text()));
    return res;
  };
  return { fetch: f as typeof fetch, checked };
}
