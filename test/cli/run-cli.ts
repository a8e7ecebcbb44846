// Test helper: runs the mcpbin CLI from source as a real process and collects its output.
import { resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";

/** What one CLI run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `mcpbin <args>` in `cwd` (default the repository root) with stdin open but silent. */
export async function mcpbin(args: string[], cwd = ROOT): Promise<CliRun> {
  const p = Bun.spawn([BUN, resolve(ROOT, "bin/mcpbin.ts"), ...args], {
    cwd,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stdout, stderr] = await Promise.all([
    p.exited,
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
  ]);
  p.stdin.end();
  return { code, stdout, stderr };
}

/** Asserts a CLI error: one line on stderr, nothing on stdout, a nonzero exit. */
export function oneLineError(r: CliRun): string {
  if (r.code === 0) throw new Error(`expected a nonzero exit; stdout: ${r.stdout}`);
  const lines = r.stderr.split("\n").filter(Boolean);
  if (lines.length !== 1) throw new Error(`expected one stderr line, got:\n${r.stderr}`);
  if (r.stdout !== "") throw new Error(`expected no stdout, got:\n${r.stdout}`);
  return lines[0]!;
}
