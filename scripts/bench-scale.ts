// Many replicas (issue 30), measured on one compiled executable (test/fixtures/servers/streams.ts):
//  - memory per idle legacy GET stream: RSS of one replica before and after N sessions open their GET stream;
//  - requests per second of one replica, legacy session tools/call from C concurrent clients, without and
//    with Redis (MCPBIN_REDIS_URL: sessions in Redis);
//  - events per second through the shared feed (Redis INCR + SET + PUBLISH, delivered in order on another
//    connection) against the in-process feed;
//  - the latency HAProxy adds: p50 of one 2026-07-28 tools/call, direct and through HAProxy.
// A real redis-server and haproxy (Debian's) are started here.
//   node_modules/.bin/bun scripts/bench-scale.ts [--streams 10000] [--seconds 5] [--clients 16] [--events 5000] [--write]
// --write replaces the generated block of "Many replicas" in docs/benchmarks.md.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { compileFixture } from "../test/helpers/proc.ts";
import { startRedis } from "../test/helpers/redis.ts";
import { legacySessions, openIdleStreams } from "../test/helpers/idle-streams.ts";
import { HttpProcess, META, modernHeaders } from "../test/http/helpers.ts";
import { startHaproxy } from "../test/scale/haproxy.ts";
import { redisStore } from "../src/state/redis.ts";
import { redisBus } from "../src/state/redis-bus.ts";
import { SharedFeed } from "../src/transport/shared-feed.ts";
import { MemoryFeed, type ChangeFeed } from "../src/transport/change-feed.ts";

const ROOT = resolve(import.meta.dir, "..");
const { values: opt } = parseArgs({
  options: {
    streams: { type: "string", default: "10000" },
    seconds: { type: "string", default: "5" },
    clients: { type: "string", default: "16" },
    events: { type: "string", default: "5000" },
    write: { type: "boolean", default: false },
  },
});
const H = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

const exe = await compileFixture("test/fixtures/servers/streams.ts", "bench-scale");
const redis = await startRedis();
const rows: string[] = [];

// 1. Memory per idle GET stream.
{
  const n = Number(opt.streams);
  const s = await HttpProcess.start([exe], { args: ["--http", "127.0.0.1:0"], env: { STREAMS_EVENTS_TOTAL: "10000" } });
  const sids = await legacySessions(s.url, n);
  Bun.gc(true);
  await Bun.sleep(500);
  const before = rssMiB(s.proc.pid);
  const sockets = await openIdleStreams(s.url, sids);
  await Bun.sleep(1000);
  const after = rssMiB(s.proc.pid);
  rows.push(
    `| memory per idle legacy GET stream | ${(((after - before) * 1024) / n).toFixed(1)} KiB | ${n.toLocaleString("en")} sessions, then each opens its GET stream; replica RSS ${before.toFixed(0)} → ${after.toFixed(0)} MiB (target: 10,000 streams under 200 MiB) |`,
  );
  for (const k of sockets) k.end();
  s.kill();
}

// 2. Requests per second of one replica, without and with Redis.
async function reqPerSecond(env: Record<string, string>): Promise<number> {
  const s = await HttpProcess.start([exe], { args: ["--http", "127.0.0.1:0"], env: { ...env, MCPBIN_HTTP_TOKEN: "" } });
  const clients = Number(opt.clients);
  const sids = await legacySessions(s.url, clients);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "whoami", arguments: {} },
  });
  const until = performance.now() + Number(opt.seconds) * 1000;
  let done = 0;
  await Promise.all(
    sids.map(async (sid) => {
      while (performance.now() < until) {
        const r = await fetch(s.url, { method: "POST", headers: { ...H, "mcp-session-id": sid }, body });
        if (!(await r.text()).includes('"result"')) throw new Error(`call failed: ${r.status}`);
        done++;
      }
    }),
  );
  s.kill();
  return done / Number(opt.seconds);
}
{
  // Rounds alternate (the machine is shared): the best of three of each.
  let without = 0;
  let withRedis = 0;
  for (let round = 0; round < 3; round++) {
    without = Math.max(without, await reqPerSecond({}));
    withRedis = Math.max(withRedis, await reqPerSecond({ MCPBIN_REDIS_URL: redis.url }));
  }
  rows.push(
    `| legacy tools/call per second, one replica, in-process state | ${without.toFixed(0)} | ${opt.clients} clients, each its own session, ${opt.seconds} s, best of 3 alternating rounds |`,
  );
  rows.push(
    `| legacy tools/call per second, one replica, sessions in Redis | ${withRedis.toFixed(0)} (${((withRedis / without) * 100).toFixed(0)}%) | the same; a session is read from Redis once per replica, written when it changes |`,
  );
}

// 3. Events per second through the feed.
async function eventsPerSecond(make: () => [ChangeFeed, ChangeFeed, () => void]): Promise<number> {
  const n = Number(opt.events);
  const [writer, reader, close] = make();
  let got = 0;
  const all = new Promise<void>((r) => reader.onEntry(() => ++got === n && r()));
  const t0 = performance.now();
  for (let i = 0; i < n; i++) writer.append({ topic: "tools" });
  await all;
  const rate = n / ((performance.now() - t0) / 1000);
  close();
  return rate;
}
{
  const mem = await eventsPerSecond(() => {
    const f = new MemoryFeed(10_000);
    return [f, f, () => f.close()];
  });
  const parts = [redisStore(redis.url), redisBus(redis.url), redisStore(redis.url), redisBus(redis.url)] as const;
  const a = new SharedFeed(parts[0], parts[1], "bench:", 10_000, "a");
  const b = new SharedFeed(parts[2], parts[3], "bench:", 10_000, "b");
  await b.start();
  const shared = await eventsPerSecond(() => [a, b, () => (a.close(), b.close())]);
  for (const p of parts) await p.close?.();
  rows.push(
    `| changes per second through the in-process feed | ${mem.toFixed(0)} | ${opt.events} appends, delivered in order to a listener |`,
  );
  rows.push(
    `| changes per second through Redis (the shared feed) | ${shared.toFixed(0)} | ${opt.events} appends on one connection (INCR, SET, PUBLISH each), delivered in order on another |`,
  );
}

// 4. The latency HAProxy adds.
{
  const s = await HttpProcess.start([exe], { args: ["--http", "127.0.0.1:0"] });
  const lb = await startHaproxy([Number(new URL(s.url).port)]);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "whoami", arguments: {}, _meta: META },
  });
  const p50 = async (url: string) => {
    const t: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t0 = performance.now();
      await (await fetch(url, { method: "POST", headers: modernHeaders("tools/call", "whoami"), body })).text();
      if (i >= 200) t.push(performance.now() - t0);
    }
    return t.sort((x, y) => x - y)[Math.floor(t.length / 2)]!;
  };
  const direct = await p50(s.url);
  const through = await p50(lb.url);
  rows.push(
    `| 2026-07-28 tools/call p50, direct / through HAProxy | ${(direct * 1000).toFixed(0)} / ${(through * 1000).toFixed(0)} µs (+${((through - direct) * 1000).toFixed(0)} µs) | one replica, one call at a time, 1,800 calls after 200 of warm-up; HAProxy 2.6 round robin, http-server-close |`,
  );
  await lb.stop();
  s.kill();
}

await redis.stop();
rmSync(exe, { force: true });
const table = ["| what | figure | how |", "|---|---|---|", ...rows].join("\n");
console.log(table);
if (opt.write) {
  const file = resolve(ROOT, "docs/benchmarks.md");
  const start = "<!-- bench-scale:begin (generated by scripts/bench-scale.ts --write) -->";
  const end = "<!-- bench-scale:end -->";
  const doc = readFileSync(file, "utf8");
  const block = `${start}\nMeasured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on this machine (2 cores, shared, load average ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]}):\n\n${table}\n${end}`;
  const i = doc.indexOf(start);
  const next =
    i === -1
      ? `${doc.trimEnd()}\n\n## Many replicas (issue 30)\n\n${block}\n`
      : doc.slice(0, i) + block + doc.slice(doc.indexOf(end) + end.length);
  writeFileSync(file, next);
}
process.exit(0);
