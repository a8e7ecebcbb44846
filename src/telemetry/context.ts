/** @module Makes sure a context manager that follows awaits is registered, so the MCP span is the parent of spans a tool starts. */

// `require` keeps the packages' CommonJS builds, whose imports of Node built-ins stay lazy in a compiled binary (see spans.ts).
const { context, createContextKey } = require("@opentelemetry/api") as typeof import("@opentelemetry/api");

/**
 * Registers the AsyncLocalStorage context manager (Bun provides `node:async_hooks`) unless a working
 * one is registered already. Without one, @opentelemetry/api's default `NoopContextManager` never
 * activates a context, and a tool's own spans would start new traces.
 * @returns true when a working context manager is in place afterwards.
 */
export function ensureContextManager(): boolean {
  const key = createContextKey("mcpbin.context-probe");
  const works = () => context.with(context.active().setValue(key, 1), () => context.active().getValue(key) === 1);
  if (works()) return true;
  const { AsyncLocalStorageContextManager } =
    require("@opentelemetry/context-async-hooks") as typeof import("@opentelemetry/context-async-hooks");
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  return works();
}
