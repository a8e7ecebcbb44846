// Replicas of ONE compiled executable (test/fixtures/servers/streams.ts, built once per run and shared by every
// file of test/scale) sharing a real redis-server, behind a real HAProxy (round robin, no stickiness).
import { rmSync } from "node:fs";
import { compileFixture } from "../helpers/proc.ts";
import { startRedis, type RedisServer } from "../helpers/redis.ts";
import { HttpProcess } from "../http/helpers.ts";
import { startHaproxy, type Haproxy } from "./haproxy.ts";

let built: Promise<string> | undefined;

/** The compiled fixture, built on first use and removed when the test run ends. */
export function scaleExecutable(): Promise<string> {
  return (built ??= compileFixture("test/fixtures/servers/streams.ts", "scale-streams").then((exe) => {
    process.on("exit", () => rmSync(exe, { force: true }));
    return exe;
  }));
}

/** Replicas r1, r2, r3 of the executable, their Redis and the load balancer in front of them. */
export interface Cluster {
  readonly redis: RedisServer;
  readonly replicas: HttpProcess[];
  readonly lb: Haproxy;
  /** Kills the replicas, stops HAProxy and Redis. */
  stop(): Promise<void>;
}

/**
 * Starts a Redis, three replicas with `MCPBIN_REDIS_URL` and `REPLICA` (r1, r2, r3) and `env`, and HAProxy.
 * @param env - more environment for every replica (the fixture's knobs: STREAMS_RATE_LIMIT, …).
 * @returns the cluster; `stop()` in afterAll.
 */
export async function startCluster(env: Record<string, string> = {}): Promise<Cluster> {
  const [exe, redis] = await Promise.all([scaleExecutable(), startRedis()]);
  const replicas = await Promise.all(
    ["r1", "r2", "r3"].map((name) =>
      HttpProcess.start([exe], {
        args: ["--http", "127.0.0.1:0"],
        env: { MCPBIN_REDIS_URL: redis.url, REPLICA: name, ...env },
      }),
    ),
  );
  const lb = await startHaproxy(replicas.map((r) => Number(new URL(r.url).port)));
  return {
    redis,
    replicas,
    lb,
    async stop() {
      for (const r of replicas) r.kill();
      await lb.stop();
      await redis.stop();
    },
  };
}
