/** The machine a benchmark ran on: CPUs, model, memory, kernel, Bun and Node versions, load. */
import { spawnSync } from "node:child_process";
import { cpus, loadavg, release, totalmem } from "node:os";

/** What docs/benchmarks.md states about the machine. */
export interface Machine {
  nproc: number;
  model: string;
  memoryGiB: number;
  kernel: string;
  bun: string;
  node: string;
  loadavg: string;
}

/** Describes this machine; `bun` is the Bun that compiled and runs the servers. */
export function describeMachine(bun: string): Machine {
  const version = (cmd: string[]) => {
    const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: "utf8" });
    return r.status === 0 ? r.stdout.trim() : "not installed";
  };
  return {
    nproc: cpus().length,
    model: cpus()[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    kernel: `Linux ${release()}`,
    bun: version([bun, "--version"]),
    node: version(["node", "--version"]),
    loadavg: loadavg()
      .map((x) => x.toFixed(2))
      .join(" "),
  };
}
