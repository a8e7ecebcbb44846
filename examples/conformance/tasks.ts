/** @module The tools the conformance suite's tasks-* scenarios call (2026-07-28 extension io.modelcontextprotocol/tasks), also callable as 2025-11-25 tasks. */
import * as v from "valibot";
import { RpcError, tool } from "../../src/index.ts";

/** Waits `ms`, or rejects when the signal aborts (a cancelled task stops at once). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });
}

/** Sync only: never a task. */
export const greet = tool({
  name: "greet",
  description: "Says hello (never a task)",
  input: v.object({ name: v.string() }),
  run: ({ name }) => `Hello, ${name}!`,
});

/** A task when the client supports tasks: sleeps `seconds`, stops at once when cancelled. */
export const slowCompute = tool({
  name: "slow_compute",
  description: "Sleeps for `seconds` seconds, then answers (a task for clients that support tasks)",
  input: v.object({ seconds: v.pipe(v.number(), v.minValue(0), v.maxValue(600)), label: v.optional(v.string()) }),
  task: "optional",
  run: async ({ seconds, label }, ctx) => {
    await sleep(seconds * 1000, ctx.signal);
    return `Computed ${label ?? "result"} after ${seconds} s`;
  },
});

/** Always a task; its tool result is an error (completed with isError at 2026-07-28). */
export const failingJob = tool({
  name: "failing_job",
  description: "Fails after about a second with a tool error (runs only as a task)",
  task: "required",
  run: async (_args, ctx) => {
    await sleep(1000, ctx.signal);
    throw new Error("the job failed: its input could not be processed");
  },
});

/** A task whose call fails with a JSON-RPC error (failed with error at 2026-07-28). */
export const protocolErrorJob = tool({
  name: "protocol_error_job",
  description: "Fails with a JSON-RPC internal error (a protocol-level failure)",
  task: "optional",
  run: async (_args, ctx) => {
    await sleep(200, ctx.signal);
    throw new RpcError(-32603, "Internal error: the job's backend is unavailable");
  },
});

/** A task that asks for a confirmation (input_required), then finishes. */
export const confirmDelete = tool({
  name: "confirm_delete",
  description: "Asks to confirm the deletion of a file, then reports what was done",
  input: v.object({ filename: v.string() }),
  task: "optional",
  run: async ({ filename }, ctx) => {
    const r = await ctx.elicit({
      message: `Delete ${filename}?`,
      schema: v.object({ confirm: v.optional(v.boolean()) }),
    });
    return r.action === "accept" && r.content.confirm !== false ? `Deleted ${filename}` : `Kept ${filename}`;
  },
});

/** A task that asks two questions at once (two inputRequests pending together). */
export const multiInput = tool({
  name: "multi_input",
  description: "Asks for a name and a confirmation at the same time",
  task: "optional",
  run: async (_args, ctx) => {
    const form = v.object({ name: v.optional(v.string()), confirm: v.optional(v.boolean()) });
    const [a, b] = await Promise.all([
      ctx.elicit({ key: "first", message: "First answer?", schema: form }),
      ctx.elicit({ key: "second", message: "Second answer?", schema: form }),
    ]);
    return `Got ${a.action === "accept" ? a.content.name : a.action} and ${b.action === "accept" ? b.content.name : b.action}`;
  },
});

/** Asks for a name as input_required rounds of the call itself, then becomes a task (deferTask). */
export const toolWithTask = tool({
  name: "test_tool_with_task",
  description: "Asks for your name, then greets you from a task",
  task: "required",
  deferTask: true,
  run: async (_args, ctx) => {
    const r = await ctx.elicit({
      key: "user_name",
      message: "What is your name?",
      schema: v.object({ name: v.string() }),
    });
    await ctx.startTask?.();
    await sleep(300, ctx.signal);
    return `Hello, ${r.action === "accept" ? r.content.name : "stranger"}!`;
  },
});

/** Every tool of the tasks scenarios. */
export const TASK_TOOLS = [greet, slowCompute, failingJob, protocolErrorJob, confirmDelete, multiInput, toolWithTask];
