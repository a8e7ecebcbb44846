// Memory of `mcpbin proxy` when its client floods calls to a slow upstream: 2,000 tools/call of 64 KiB each
// (125 MiB) written at once, while the upstream (test/fixtures/upstreams/raw.ts "slow") holds every call. The
// proxy takes at most maxInFlight (64) calls at a time and stops reading the rest, so its peak RSS stays far
// below what it was sent (74 MiB measured); once the upstream answers, every call gets its result.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUN, INITED, initLine, ROOT } from "../helpers/proc.ts";
import { peakRssMiB, settled } from "../helpers/proc-stats.ts";
import { pumpLines, stderrLines } from "../client/lines.ts";

setDefaultTimeout(120_000);
const MCPBIN = resolve(ROOT, "bin/mcpbin.ts");
const RAW = resolve(ROOT, "test/fixtures/upstreams/raw.ts");
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

test("a client flooding a slow upstream through the proxy: peak RSS bounded (125 MiB sent), then every call answered", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-proxy-flood-"));
  const servers = join(dir, "servers.json");
  writeFileSync(servers, JSON.stringify({ mcpServers: { slow: { command: BUN, args: [RAW, "slow"] } } }));
  const p = Bun.spawn([BUN, MCPBIN, "proxy", "--servers", servers], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const stderr = stderrLines();
  void pumpLines(p.stderr, stderr);
  const responses = new Map<number, Record<string, any>>();
  let onResponse = () => {};
  void pumpLines(p.stdout, {
    push(l: string) {
      const m = JSON.parse(l);
      if (typeof m.id === "number") {
        responses.set(m.id, m);
        onResponse();
      }
    },
  });
  cleanups.push(() => {
    p.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  const upstreamPid = Number(/pid (\d+)/.exec(await stderr.next(/\[slow\] slow upstream waiting, pid \d+/))![1]);

  const n = 2000;
  const pad = "x".repeat(64 * 1024);
  const lines = [initLine("2025-11-25", 0), INITED];
  for (let i = 1; i <= n; i++)
    lines.push(
      JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "a1", arguments: { i, pad } } }),
    );
  p.stdin.write(lines.join("\n") + "\n");
  void p.stdin.flush();
  await settled(p.pid);
  const peak = peakRssMiB(p.pid);
  process.stderr.write(`proxy flood: peak RSS ${peak.toFixed(1)} MiB with ${n} × 64 KiB calls sent\n`);
  expect(responses.size).toBe(1); // initialize only: every call is held upstream or unread
  expect(peak).toBeLessThan(160);

  const all = new Promise<void>((resolve) => {
    onResponse = () => responses.size === n + 1 && resolve();
    onResponse();
  });
  process.kill(upstreamPid, "SIGUSR1");
  await all;
  for (let i = 1; i <= n; i++) expect(responses.get(i)!.result).toEqual({ content: [{ type: "text", text: "a1" }] });
});
