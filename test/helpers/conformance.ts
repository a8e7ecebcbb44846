/** @module The official MCP conformance suite (@modelcontextprotocol/conformance, a devDependency) run from tests: one server scenario against a URL, its checks read back. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { HttpProcess } from "../http/helpers.ts";
import { compileFixture } from "./proc.ts";

const SUITE = resolve(import.meta.dir, "../../node_modules/@modelcontextprotocol/conformance/dist/index.js");

/** One check the suite reported. */
export interface ConformanceCheck {
  readonly id: string;
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO" | string;
  readonly description?: string;
  readonly errorMessage?: string;
}

/**
 * Runs one server scenario of the suite against a Streamable HTTP endpoint (the suite needs Node ≥ 22, so it
 * runs on the project's Bun).
 * @param url - the server's MCP endpoint, e.g. `http://127.0.0.1:PORT/mcp`.
 * @param scenario - a scenario id (`conformance list` names them).
 * @param args - more suite arguments (e.g. `["--requirements", "2026-07-28"]`).
 * @returns every check of the run.
 * @throws Error with the suite's output when it wrote no checks.
 */
export async function serverScenario(
  url: string,
  scenario: string,
  args: readonly string[] = [],
): Promise<ConformanceCheck[]> {
  const out = mkdtempSync(join(tmpdir(), "mcpbin-conformance-"));
  try {
    const p = Bun.spawn([process.execPath, SUITE, "server", "--url", url, "--scenario", scenario, "-o", out, ...args], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    const dirs = readdirSync(out);
    if (dirs.length === 0) throw new Error(`conformance ${scenario} wrote no checks:\n${stdout}\n${stderr}`);
    return dirs.flatMap((d) => JSON.parse(readFileSync(join(out, d, "checks.json"), "utf8")) as ConformanceCheck[]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The checks that did not succeed, as lines for an assertion message (empty when all passed). */
export function notPassed(checks: readonly ConformanceCheck[]): string[] {
  return checks
    .filter((c) => c.status !== "SUCCESS")
    .map((c) => `${c.id}: ${c.status}${c.errorMessage ? ` (${c.errorMessage})` : ""}`);
}

/**
 * Runs one client scenario of the suite against an mcpbin client program run from source with the project's Bun
 * (the suite starts the scenario's server and runs the program with its URL as the last argument).
 * @param program - the client program, relative to the repository root (e.g. `examples/conformance/client.ts`).
 * @param scenario - a client scenario id.
 * @param args - more suite arguments.
 * @returns every check of the run.
 */
export async function clientScenario(
  program: string,
  scenario: string,
  args: readonly string[] = [],
): Promise<ConformanceCheck[]> {
  const out = mkdtempSync(join(tmpdir(), "mcpbin-conformance-"));
  const root = resolve(import.meta.dir, "../..");
  try {
    const command = `${process.execPath} ${resolve(root, program)}`;
    const p = Bun.spawn(
      [process.execPath, SUITE, "client", "--command", command, "--scenario", scenario, "-o", out, ...args],
      { stdout: "pipe", stderr: "pipe", cwd: root },
    );
    const [stdout, stderr] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    const dirs = readdirSync(out);
    if (dirs.length === 0) throw new Error(`conformance ${scenario} wrote no checks:\n${stdout}\n${stderr}`);
    return dirs.flatMap((d) => JSON.parse(readFileSync(join(out, d, "checks.json"), "utf8")) as ConformanceCheck[]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

let conformanceBin: Promise<string> | undefined;

/**
 * The compiled conformance example (examples/conformance/server.ts), built once per test run, served over its own
 * Streamable HTTP transport (HttpProcess.start: a free loopback port, ready once it says it listens) until `stop()`.
 * @returns the MCP endpoint and the way to stop the server.
 */
export async function conformanceServerOverHttp(): Promise<{ url: string; stop(): void }> {
  const bin = await (conformanceBin ??= compileFixture("examples/conformance/server.ts", "conformance"));
  const server = await HttpProcess.start([bin]);
  return { url: server.url, stop: () => server.kill() };
}
