/** @module Tracing a task's life: the creating call's SERVER span names the task, the run has its own span under it (the tool's spans nest there), ended with the task's status. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import * as v from "valibot";
import { tool } from "../../src/index.ts";
import { Registry } from "../../src/server/registry.ts";
import { Session } from "../../src/server/dispatcher.ts";
import { enableTasks } from "../../src/tasks/register.ts";
import { ensureContextManager } from "../../src/telemetry/context.ts";
import { enableTracing } from "../../src/telemetry/spans.ts";
import { resetTracing } from "../../src/telemetry/state.ts";

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const author = provider.getTracer("author");
const options = {
  name: "traced",
  version: "1.0.0",
  tools: [
    tool({
      name: "job",
      description: "works, with a span of its own",
      input: v.object({ ms: v.number() }),
      task: "optional",
      run: async ({ ms }, ctx) => {
        const s = author.startSpan("author-step");
        await new Promise((r, j) => {
          const t = setTimeout(r, ms);
          ctx.signal.addEventListener("abort", () => (clearTimeout(t), j(ctx.signal.reason)));
        });
        s.end();
        return "done";
      },
    }),
  ],
};
let session: Session;
let id = 10;
const send = async (method: string, params: unknown) =>
  JSON.parse((await session.handleLine(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params })))!);

beforeAll(async () => {
  expect(ensureContextManager()).toBe(true);
  enableTracing(provider.getTracer("mcpbin"));
  enableTasks(options);
  session = new Session(new Registry(options), () => {});
  await session.handleLine(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  );
  await session.handleLine('{"jsonrpc":"2.0","method":"notifications/initialized"}');
});
afterAll(resetTracing);

test("the creating call's span has mcpbin.task.id; the run's span is its child, outlives it, and ends with the task's status", async () => {
  exporter.reset();
  const { task } = (await send("tools/call", { name: "job", arguments: { ms: 30 }, task: {} })).result;
  await send("tasks/result", { taskId: task.taskId });
  await Bun.sleep(20);
  const spans = exporter.getFinishedSpans();
  const creating = spans.find((s) => s.name === "tools/call job")!;
  const run = spans.find((s) => s.name === "task job")!;
  const step = spans.find((s) => s.name === "author-step")!;
  expect(creating.attributes["mcpbin.task.id"]).toBe(task.taskId);
  expect(run.attributes).toMatchObject({
    "mcpbin.task.id": task.taskId,
    "gen_ai.tool.name": "job",
    "mcpbin.task.status": "completed",
  });
  expect(run.parentSpanContext?.spanId).toBe(creating.spanContext().spanId);
  expect(step.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
  const end = (s: typeof run) => s.endTime[0] * 1e9 + s.endTime[1];
  expect(end(run)).toBeGreaterThan(end(creating));
});

test("a cancelled task's run span ends with error.type cancelled", async () => {
  exporter.reset();
  const { task } = (await send("tools/call", { name: "job", arguments: { ms: 60_000 }, task: {} })).result;
  await send("tasks/cancel", { taskId: task.taskId });
  await Bun.sleep(30);
  const run = exporter.getFinishedSpans().find((s) => s.name === "task job")!;
  expect(run.attributes).toMatchObject({ "mcpbin.task.status": "cancelled", "error.type": "cancelled" });
});
