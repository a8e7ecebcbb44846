// A real HAProxy (Debian's haproxy, scripts/system-deps.sh) in front of some local ports: HTTP mode, round
// robin per request, no stickiness, health checks on /healthz so a dead replica leaves the rotation.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running HAProxy. */
export interface Haproxy {
  /** The MCP endpoint through it. */
  readonly url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/**
 * Starts `haproxy` balancing `ports` round robin.
 * @param ports - the replicas' ports on 127.0.0.1.
 * @returns the load balancer; `stop()` in afterAll.
 */
export async function startHaproxy(ports: readonly number[]): Promise<Haproxy> {
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-haproxy-"));
  const port = await freePort();
  const cfg = [
    "global",
    "  maxconn 4000",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 60s",
    "  timeout server 60s",
    "  retries 2",
    "  option redispatch",
    "  option http-server-close",
    "frontend mcp",
    `  bind 127.0.0.1:${port}`,
    "  default_backend replicas",
    "backend replicas",
    "  balance roundrobin",
    "  option httpchk",
    "  http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host localhost",
    ...ports.map((p, i) => `  server r${i + 1} 127.0.0.1:${p} check inter 200 fall 1 rise 1`),
    "",
  ].join("\n");
  writeFileSync(join(dir, "haproxy.cfg"), cfg);
  const proc = Bun.spawn(["/usr/sbin/haproxy", "-db", "-f", join(dir, "haproxy.cfg")], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.status === 200) break;
    } catch {}
    if (Date.now() > deadline || proc.exitCode !== null)
      throw new Error(`haproxy did not start: ${await new Response(proc.stderr).text()}`);
    await Bun.sleep(50);
  }
  return {
    url,
    async stop() {
      proc.kill();
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
