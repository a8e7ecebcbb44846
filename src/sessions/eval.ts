/** @module The opt-in `evaluate` tool of a session: a JavaScript snippet run with the program's values in reach (or in a worker thread a timeout terminates), its console output captured and its value returned as JSON. Runs in Bun and in Node ≥ 20. */
import { Worker } from "node:worker_threads";
import { format } from "node:util";
import { tool } from "../tools/define.ts";
import { textContent } from "../shared/content-blocks.ts";
import { toolResult } from "../shared/result.ts";
import type { Tool } from "../tools/types.ts";

/** `true`: in the program; `"worker"`: in a worker thread; false/undefined: no evaluate tool. */
export type EvalMode = boolean | "worker";

/** Default and largest time a snippet may run, ms. */
export const EVAL_TIMEOUT_MS = 10_000;
export const MAX_EVAL_TIMEOUT_MS = 120_000;
/** Console output kept per run, characters. */
const MAX_CONSOLE_CHARS = 64 * 1024;

const INPUT_SCHEMA = {
  type: "object",
  properties: {
    code: {
      type: "string",
      description:
        "JavaScript: an expression, or a function body that uses `return`; `await` works. The names listed in the description are in scope.",
    },
    timeoutMs: {
      type: "integer",
      minimum: 1,
      maximum: MAX_EVAL_TIMEOUT_MS,
      description: `How long it may run, ms (default ${EVAL_TIMEOUT_MS}).`,
    },
  },
  required: ["code"],
  additionalProperties: false,
} as const;

/** What a run gives back. */
interface Outcome {
  readonly ok: boolean;
  readonly value?: unknown;
  readonly error?: string;
  readonly console: string[];
}

/** Text of a value as JSON where it can be (bigint as a string, cycles and functions named). */
function asJson(value: unknown): unknown {
  if (value === undefined) return null;
  const seen = new WeakSet<object>();
  try {
    return JSON.parse(
      JSON.stringify(value, (_k, x: unknown) => {
        if (typeof x === "bigint") return x.toString();
        if (typeof x === "function") return `[function ${(x as { name?: string }).name || "anonymous"}]`;
        if (typeof x === "object" && x !== null) {
          if (seen.has(x)) return "[circular]";
          seen.add(x);
        }
        return x;
      }) ?? "null",
    );
  } catch (e) {
    return `[not JSON: ${(e as Error).message}]`;
  }
}

/** A console whose output goes to `lines` (bounded). */
function capture(lines: string[]): Record<string, (...a: unknown[]) => void> {
  let size = 0;
  const put =
    (level: string) =>
    (...a: unknown[]) => {
      if (size > MAX_CONSOLE_CHARS) return;
      const text = (level === "log" ? "" : `[${level}] `) + format(...a);
      size += text.length;
      lines.push(size > MAX_CONSOLE_CHARS ? "[console output cut]" : text);
    };
  return { log: put("log"), info: put("info"), warn: put("warn"), error: put("error"), debug: put("debug") };
}

/** Compiles a snippet as an expression when it is one, else as a function body. */
const COMPILE = `
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
function compile(names, code) {
  try { return new AsyncFunction(...names, "console", "return (" + code + "\\n)"); }
  catch { return new AsyncFunction(...names, "console", code); }
}`;
const compile = new Function(`${COMPILE}; return compile;`)() as (
  names: string[],
  code: string,
) => (...a: unknown[]) => Promise<unknown>;

/** Runs a snippet here, with the scope's values themselves; a timeout answers but cannot stop a busy loop. */
async function runInline(
  code: string,
  scope: Readonly<Record<string, unknown>>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Outcome> {
  const lines: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const fn = compile(Object.keys(scope), code);
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `timed out after ${timeoutMs} ms (it may still be running in the program; use eval: "worker" to have snippets stopped)`,
            ),
          ),
        timeoutMs,
      );
      signal.addEventListener("abort", () => reject(new Error("cancelled")), { once: true });
    });
    const value = await Promise.race([fn(...Object.values(scope), capture(lines)), stop]);
    return { ok: true, value: asJson(value), console: lines };
  } catch (e) {
    return { ok: false, error: (e as Error)?.stack?.split("\n").slice(0, 3).join("\n") ?? String(e), console: lines };
  } finally {
    clearTimeout(timer);
  }
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { format } = require("node:util");
${COMPILE}
const lines = [];
const put = (level) => (...a) => { lines.push((level === "log" ? "" : "[" + level + "] ") + format(...a)); };
const cons = { log: put("log"), info: put("info"), warn: put("warn"), error: put("error"), debug: put("debug") };
(async () => {
  try {
    const fn = compile(Object.keys(workerData.scope), workerData.code);
    const value = await fn(...Object.values(workerData.scope), cons);
    let json;
    try { json = JSON.parse(JSON.stringify(value === undefined ? null : value, (k, x) => typeof x === "bigint" ? x.toString() : x) ?? "null"); }
    catch (e) { json = "[not JSON: " + e.message + "]"; }
    parentPort.postMessage({ ok: true, value: json, console: lines });
  } catch (e) {
    parentPort.postMessage({ ok: false, error: String(e && e.stack || e).split("\\n").slice(0, 3).join("\\n"), console: lines });
  }
})();`;

/** The scope's values a worker can receive (structured clone); the names of the others. */
function cloneable(scope: Readonly<Record<string, unknown>>): { data: Record<string, unknown>; left: string[] } {
  const data: Record<string, unknown> = {};
  const left: string[] = [];
  for (const [k, x] of Object.entries(scope)) {
    try {
      data[k] = structuredClone(x);
    } catch {
      left.push(k);
    }
  }
  return { data, left };
}

/** Runs a snippet in a worker thread, terminated on timeout or cancellation (the program is not touched). */
function runInWorker(
  code: string,
  scope: Record<string, unknown>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { code, scope } });
    let done = false;
    const finish = (o: Outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      void w.terminate();
      resolve(o);
    };
    const timer = setTimeout(
      () => finish({ ok: false, error: `timed out after ${timeoutMs} ms; the worker was terminated`, console: [] }),
      timeoutMs,
    );
    const onAbort = () => finish({ ok: false, error: "cancelled; the worker was terminated", console: [] });
    signal.addEventListener("abort", onAbort, { once: true });
    w.on("message", (m: Outcome) => finish(m));
    w.on("error", (e: Error) => finish({ ok: false, error: String(e?.stack ?? e), console: [] }));
    w.on("exit", (c) =>
      finish({ ok: false, error: `the worker ended (exit code ${c}) without a result`, console: [] }),
    );
  });
}

/**
 * The `evaluate` tool of a session.
 * @param mode - `true` (in the program) or `"worker"` (a worker thread).
 * @param scope - the values a snippet sees by name.
 * @returns the tool: `{ code, timeoutMs? }` → structured `{ value, console }`, or an isError result with the error and the console.
 */
export function evaluateTool(mode: true | "worker", scope: Readonly<Record<string, unknown>>): Tool {
  const names = Object.keys(scope);
  const { data, left } = mode === "worker" ? cloneable(scope) : { data: {}, left: [] as string[] };
  const inScope = (mode === "worker" ? Object.keys(data) : names).join(", ") || "none";
  return tool({
    name: "evaluate",
    description:
      `Runs a JavaScript snippet inside this running program and returns its value as JSON with what it printed. ` +
      `In scope: ${inScope}.${mode === "worker" ? ` It runs in a worker thread with copies of those values${left.length ? ` (not available there: ${left.join(", ")})` : ""}; a timeout terminates it.` : " It runs in the program itself: it can change the program's state."}`,
    inputSchema: INPUT_SCHEMA,
    annotations: { destructiveHint: true, openWorldHint: false },
    run: async (args, ctx) => {
      const { code, timeoutMs = EVAL_TIMEOUT_MS } = args as { code: string; timeoutMs?: number };
      const o =
        mode === "worker"
          ? await runInWorker(code, data, timeoutMs, ctx.signal)
          : await runInline(code, scope, timeoutMs, ctx.signal);
      const printed = o.console.length ? `\nconsole:\n${o.console.join("\n")}` : "";
      if (!o.ok) return toolResult({ content: [textContent(`Error: ${o.error}${printed}`)], isError: true });
      return toolResult({
        content: [textContent(`${JSON.stringify(o.value)}${printed}`)],
        structuredContent: { value: o.value, console: o.console },
      });
    },
  }) as unknown as Tool;
}
