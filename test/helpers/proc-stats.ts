/** @module A process's peak memory and whether it has settled, read from /proc (Linux), for the memory tests. */
import { readFileSync } from "node:fs";

/** Peak resident set size of a process so far (VmHWM), MiB. */
export function peakRssMiB(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

function cpuTicks(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(f[11]) + Number(f[12]);
}

/**
 * Waits until a process has done all it can without help (a client that does not read): its CPU time and
 * `progress()` stay the same over 5 polls 100 ms apart.
 * @param pid - the process.
 * @param progress - a counter the test sees grow while the process works (e.g. "started" lines on stderr).
 * @throws Error when it has not settled within 60 s.
 */
export async function settled(pid: number, progress: () => number = () => 0): Promise<void> {
  let last = [-1, -1];
  let quiet = 0;
  const until = performance.now() + 60_000;
  while (quiet < 5) {
    if (performance.now() > until) throw new Error(`process ${pid} never settled`);
    await Bun.sleep(100); // time is what is tested: settled means no CPU used over an interval
    const now = [cpuTicks(pid), progress()];
    quiet = now[0] === last[0] && now[1] === last[1] ? quiet + 1 : 0;
    last = now;
  }
}
