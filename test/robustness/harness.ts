// Shared by the robustness tests: one compiled fixture binary per test run, and /proc readings of a server process.
import { afterEach } from "bun:test";
import { readFileSync } from "node:fs";
import { compileFixture, McpProcess } from "../helpers/proc.ts";

let compiled: Promise<string> | undefined;

/** The fixture server compiled once per `bun test` run (every robustness file shares it). */
export function fixtureBin(): Promise<string> {
  return (compiled ??= compileFixture("test/fixtures/servers/fixture.ts", "robust-fixture"));
}

const started = new Set<McpProcess>();

/**
 * Spawns the compiled fixture with FIXTURE_* knobs (see test/fixtures/servers/fixture.ts). A file that
 * spawns calls {@link killAfterEach} once, so a test that fails before its own cleanup leaks no process.
 */
export async function spawnFixture(env: Record<string, string> = {}): Promise<McpProcess> {
  const p = new McpProcess([await fixtureBin()], { env });
  started.add(p);
  void p.exited.then(() => started.delete(p));
  return p;
}

/** Registers, in the calling test file, an `afterEach` that kills every fixture process its test started and left running. */
export function killAfterEach(): void {
  afterEach(() => {
    for (const p of started) p.kill();
    started.clear();
  });
}

/** CPU time (user + system) a process has used so far, in clock ticks (1/100 s on Linux). */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** Resident set size of a process, in KiB. */
export function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) : 0;
}

/** Resolves with the exit code, or with "timeout" (and kills the process) after `ms`. */
export async function exitWithin(p: McpProcess, ms: number): Promise<number | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const r = await Promise.race([
    p.exited,
    new Promise<"timeout">((res) => (timer = setTimeout(() => res("timeout"), ms))),
  ]);
  clearTimeout(timer);
  if (r === "timeout") p.kill();
  return r;
}

/** A tools/call request object. */
export function call(
  id: number | string,
  name: string,
  args: Record<string, unknown> = {},
  meta?: Record<string, unknown>,
) {
  const params: Record<string, unknown> = { name, arguments: args };
  if (meta) params._meta = meta;
  return { jsonrpc: "2.0", id, method: "tools/call", params };
}

/** The text of a tools/call response's first content block. */
export function textOf(r: Record<string, any>): string {
  return r.result?.content?.[0]?.text;
}

/** Every stdout line parses as JSON (the client's framing never breaks). */
export function assertAllJson(p: McpProcess): void {
  for (const line of p.lines) {
    try {
      JSON.parse(line);
    } catch {
      throw new Error(`stdout line is not JSON: ${line.slice(0, 200)}`);
    }
  }
}
