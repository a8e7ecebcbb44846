// The server dies with its launcher: when the process that started a stdio server dies while something else
// still holds the server's stdin open, the server (re-parented) notices its parent is gone and exits within
// a second, ending its upstream children too. A server started on purpose with --http lives on.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { serversFile } from "../client/front.ts";

setDefaultTimeout(60_000);
const pids: number[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
  for (const p of pids.splice(0)) {
    try {
      process.kill(p, "SIGKILL");
    } catch {}
  }
});

const alive = (pid: number) => {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
};
const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/**
 * Starts `args` from a launcher shell that prints the server's pid. The server's stdin is a FIFO the test
 * holds open (as a client's helper process might): the launcher's death closes nothing the server reads.
 */
async function launched(args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-parent-"));
  const fifo = join(dir, "stdin");
  Bun.spawnSync(["mkfifo", fifo]);
  const held = openSync(fifo, constants.O_RDWR); // O_RDWR: opening does not wait for a reader (Linux)
  cleanups.push(() => {
    closeSync(held);
    rmSync(dir, { recursive: true, force: true });
  });
  const launcher = Bun.spawn(["bash", "-c", '"$0" "$@" <"$FIFO" >/dev/null 2>&1 & echo $!; wait', BUN, ...args], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "ignore",
    cwd: ROOT,
    env: { ...process.env, FIFO: fifo },
  });
  pids.push(launcher.pid);
  const reader = launcher.stdout.getReader();
  const { value } = await reader.read();
  const pid = Number(new TextDecoder().decode(value).trim());
  pids.push(pid);
  return { launcher, pid };
}

/** Waits until `check()` holds, polling every 50 ms; the ms it took, or -1 after `ms`. */
async function within(check: () => boolean, ms: number): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    if (check()) return performance.now() - t0;
    await Bun.sleep(50);
  }
  return -1;
}

test("a stdio proxy whose launcher is killed exits within a second, and its upstream child with it, though its stdin stays open", async () => {
  const file = serversFile({ up: { command: BUN, args: [`${ROOT}/test/fixtures/servers/fixture.ts`] } });
  const { launcher, pid } = await launched([`${ROOT}/bin/mcpbin.ts`, "proxy", "--servers", file]);
  // The upstream child is running once the proxy has started it.
  expect(await within(() => childrenOf(pid).length > 0, 20_000)).toBeGreaterThanOrEqual(0);
  const upstream = childrenOf(pid)[0]!;
  pids.push(upstream);
  launcher.kill("SIGKILL");
  const took = await within(() => !alive(pid), 3000);
  expect(took).toBeGreaterThanOrEqual(0);
  expect(took).toBeLessThan(1500);
  expect(await within(() => !alive(upstream), 3000)).toBeGreaterThanOrEqual(0);
});

test("a server started with --http is not ended by its launcher's death", async () => {
  const { launcher, pid } = await launched([`${ROOT}/test/fixtures/servers/fixture.ts`, "--http", "127.0.0.1:0"]);
  await Bun.sleep(1000);
  launcher.kill("SIGKILL");
  await Bun.sleep(2000);
  expect(alive(pid)).toBe(true);
});
