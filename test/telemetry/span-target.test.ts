// A span's target comes from the capability that owns the method (CapabilityRegistration.spanTargets), not the core:
// `{mcp.method.name} {target}` when a registration names one, the method alone otherwise.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import * as v from "valibot";
import { tool } from "../../src/index.ts";
import "../../src/serve/capabilities.ts";
import { Session } from "../../src/server/dispatcher.ts";
import type { MethodSpec } from "../../src/server/method.ts";
import { registerCapability } from "../../src/server/register.ts";
import { Registry } from "../../src/server/registry.ts";
import { ensureContextManager } from "../../src/telemetry/context.ts";
import { enableTracing } from "../../src/telemetry/spans.ts";
import { resetTracing } from "../../src/telemetry/state.ts";
import { initLine } from "../helpers/proc.ts";

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

/** A method of a test capability whose span is named by the thing its params name, when the server knows it. */
const thing: MethodSpec<unknown, Record<string, unknown>> = {
  name: "test/span-thing",
  eras: ["legacy"],
  handle: () => ({}),
};
registerCapability({
  name: "span-target-test",
  methods: [thing],
  spanTargets: {
    "test/span-thing": (params) => {
      const name = (params as { name?: unknown } | undefined)?.name;
      return name === "known" ? name : undefined;
    },
  },
});

let session: Session;
beforeAll(() => {
  expect(ensureContextManager()).toBe(true);
  enableTracing(provider.getTracer("mcpbin"));
});
afterAll(() => resetTracing());
beforeEach(async () => {
  const echo = tool({ name: "echo", description: "echo", input: v.object({ text: v.string() }), run: (a) => a.text });
  session = new Session(new Registry({ name: "span-target", version: "1.0.0", tools: [echo] }), () => {});
  await session.handleLine(JSON.stringify(initLine("2025-06-18")));
  exporter.reset();
});

const names = async (...msgs: Record<string, unknown>[]): Promise<string[]> => {
  for (const m of msgs) await session.handleLine(JSON.stringify({ jsonrpc: "2.0", ...m }));
  return exporter
    .getFinishedSpans()
    .filter((s) => s.instrumentationScope.name === "mcpbin")
    .map((s) => s.name);
};

test("a registration names the target of its method's span; a target it does not name leaves the method alone", async () => {
  expect(
    await names(
      { id: 2, method: "test/span-thing", params: { name: "known" } },
      { id: 3, method: "test/span-thing", params: { name: "other" } },
      { id: 4, method: "test/span-thing" },
    ),
  ).toEqual(["test/span-thing known", "test/span-thing", "test/span-thing"]);
});

test("the tools capability names a tools/call span by a tool the server has, never by one it lacks", async () => {
  expect(
    await names(
      { id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } },
      { id: 3, method: "tools/call", params: { name: "missing", arguments: {} } },
      { id: 4, method: "tools/list" },
    ),
  ).toEqual(["tools/call echo", "tools/call", "tools/list"]);
});
