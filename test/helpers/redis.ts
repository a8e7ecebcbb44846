/** @module A real redis-server for tests: started on a free loopback port in a temporary directory, persistence off. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running redis-server. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** Its port. */
  port: number;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/**
 * Starts `redis-server` (scripts/system-deps.sh installs it) on a free 127.0.0.1 port in a temporary directory,
 * with `--save '' --appendonly no`, and waits until it answers PING.
 * @returns the server; call `stop()` in afterAll.
 */
export async function startRedis(): Promise<RedisServer> {
  for (let attempt = 0; ; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), "mcpbin-redis-"));
    const port = await freePort();
    const proc = Bun.spawn(
      [
        "/usr/bin/redis-server",
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    const url = `redis://127.0.0.1:${port}`;
    const stop = async () => {
      proc.kill();
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    };
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && proc.exitCode === null) {
      try {
        const c = new Bun.RedisClient(url, { autoReconnect: false, connectionTimeout: 500 });
        await c.send("PING", []);
        c.close();
        return { url, port, stop };
      } catch {
        await Bun.sleep(50);
      }
    }
    await stop();
    if (attempt >= 2) throw new Error(`redis-server did not start on port ${port}`);
  }
}
