// What the bench harness reads of a process and its numbers: CPU time and memory from /proc, CPU pinning with
// taskset, quantiles and medians.
import { spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { readdirSync, readFileSync } from "node:fs";

export const CLK_TCK = 100; // Linux USER_HZ for /proc/PID/stat

export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
export function procStatusKb(pid: number, key: string): number | null {
  try {
    const m = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, "m"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
/**
 * CPU time of every thread of pid, seconds: the sum of /proc/PID/task/TID/schedstat (ns resolution);
 * falls back to utime+stime from /proc/PID/stat (10 ms ticks).
 */
export function procCpuSeconds(pid: number): number | null {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // the thread ended between the listing and the read
      }
    }
    if (ns > 0) return ns / 1e9;
  } catch {
    // no schedstat: use the tick counters below
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const f = (n: number) => Number(rest[n - 3]);
    return (f(14) + f(15) + f(16) + f(17)) / CLK_TCK;
  } catch {
    return null;
  }
}
export const ALL_CPUS = `0-${Math.max(0, cpus().length - 1)}`;
export function pinTo(pid: number, list: string): boolean {
  return spawnSync("taskset", ["-a", "-p", "-c", list, String(pid)], { stdio: "ignore" }).status === 0;
}
