/** @module The bytecode-order profile of a compiled executable: one recorded start, for the profile-guided second compile of `mcpbin build`. */
import { join } from "node:path";
import { existsSync, statSync } from "node:fs";
import { META } from "../protocol/meta.ts";
import { MODERN_VERSION } from "../protocol/versions.ts";
import { removeTempDir, tempDir, trackChild } from "../build/temp-dirs.ts";

/** Longest the profiling session of {@link recordBytecodeOrder} may take, ms. */
const ORDER_TIMEOUT_MS = 10_000;

/**
 * Records which bytecode a start of the executable uses (`BUN_BYTECODE_ORDER_OUT`): runs it once, over stdio
 * whatever its options say (`MCPBIN_STDIO=1`), with a
 * session that runs no tool (initialize, tools/list, a call of an unknown tool, ping, and a 2026-07-28
 * server/discover), stdout and stderr discarded, stdin then closed.
 * @param executable - a host executable built with bytecode.
 * @returns the profile (the caller removes it with `cleanup`), or undefined when none was written.
 */
export async function recordBytecodeOrder(executable: string): Promise<{ file: string; cleanup(): void } | undefined> {
  const dir = tempDir("mcpbin-order-");
  const file = join(dir, "order.txt");
  const cleanup = () => removeTempDir(dir);
  const meta = { [META.protocolVersion]: MODERN_VERSION, [META.clientCapabilities]: {} };
  const session = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "mcpbin-build", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "\u0000", arguments: {} } },
    { jsonrpc: "2.0", id: 4, method: "ping" },
    { jsonrpc: "2.0", id: 5, method: "server/discover", params: { _meta: meta } },
  ];
  try {
    // The builder's tracing settings stay out of this run (it would export its spans).
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_")));
    // MCPBIN_STDIO=1 (like --stdio, but no argument a strict script would refuse): a server whose
    // options ask for HTTP must not open a port here.
    const p = Bun.spawn([executable], {
      stdin: "pipe",
      stdout: "ignore",
      stderr: "ignore",
      env: { ...env, MCPBIN_STDIO: "1", BUN_BYTECODE_ORDER_OUT: file },
    });
    trackChild(p);
    const timer = setTimeout(() => p.kill("SIGKILL"), ORDER_TIMEOUT_MS);
    p.stdin.write(session.map((m) => JSON.stringify(m) + "\n").join(""));
    await p.stdin.end();
    const code = await p.exited;
    clearTimeout(timer);
    if (code === 0 && existsSync(file) && statSync(file).size > 0) return { file, cleanup };
  } catch {
    // no profile: the caller keeps the unordered build
  }
  cleanup();
  return undefined;
}
