// Benchmark of issue 15: resources/read of a 1 KiB text and prompts/get against a tools/call returning the same text
// (server CPU per call, pipelined over stdio), and the start of a server with 1,000 resources against one with none.
// Run: bun scripts/bench-content.ts [calls=20000] [rounds=3]. Builds its servers with mcpbin build into a temp dir.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const CALLS = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const dir = mkdtempSync(join(tmpdir(), "mcpbin-bench-content-"));
const INDEX = JSON.stringify(resolve(ROOT, "src/index.ts"));

function source(resources: number): string {
  return `import { prompt, resource, serve, tool } from ${INDEX};
const KIB = "x".repeat(1024);
const many = Array.from({ length: ${resources} }, (_, i) => resource({ uri: \`docs://r\${i}\`, name: \`r\${i}\`, mimeType: "text/plain", text: KIB }));
await serve({
  name: "bench", version: "1.0.0",
  tools: [tool({ name: "kib", description: "1 KiB of text", run: () => KIB })],
  resources: [resource({ uri: "docs://kib", name: "kib", mimeType: "text/plain", text: KIB }), ...many],
  prompts: [prompt({ name: "kib", description: "1 KiB of text", get: () => KIB })],
});
`;
}

async function build(name: string, resources: number): Promise<string> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source(resources));
  const out = join(dir, name);
  const p = Bun.spawn([process.execPath, resolve(ROOT, "bin/mcpbin.ts"), "build", entry, "--outfile", out], {
    stdout: "ignore",
    stderr: "pipe",
  });
  if ((await p.exited) !== 0) throw new Error(await new Response(p.stderr).text());
  return out;
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
});

/** Server CPU (µs) of one process that answers `n` requests of `line(i)`, pipelined, then sees EOF. */
async function cpu(bin: string, n: number, line: (i: number) => string): Promise<number> {
  const p = Bun.spawn([bin], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const lines = [INIT, '{"jsonrpc":"2.0","method":"notifications/initialized"}'];
  for (let i = 1; i <= n; i++) lines.push(line(i));
  p.stdin.write(lines.join("\n") + "\n");
  await p.stdin.end();
  const out = await new Response(p.stdout).text();
  await p.exited;
  const got = out.split("\n").filter(Boolean).length;
  if (got !== n + 1) throw new Error(`expected ${n + 1} responses, got ${got}`);
  const u = p.resourceUsage()!.cpuTime;
  return Number(u.user + u.system);
}

/** ms from spawn to the initialize response. */
async function start(bin: string): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn([bin], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  p.stdin.write(INIT + "\n");
  p.stdin.flush();
  const reader = p.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
  const ms = performance.now() - t0;
  p.kill();
  await p.exited;
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const one = await build("one", 0);
  const thousand = await build("thousand", 1000);
  const kinds: Record<string, (i: number) => string> = {
    "tools/call": (i) =>
      JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "kib", arguments: {} } }),
    "resources/read": (i) =>
      JSON.stringify({ jsonrpc: "2.0", id: i, method: "resources/read", params: { uri: "docs://kib" } }),
    "prompts/get": (i) => JSON.stringify({ jsonrpc: "2.0", id: i, method: "prompts/get", params: { name: "kib" } }),
  };
  const per: Record<string, number[]> = {};
  for (let r = 0; r < ROUNDS; r++) {
    const idle = await cpu(one, 0, kinds["tools/call"]!);
    for (const [k, f] of Object.entries(kinds)) (per[k] ??= []).push(((await cpu(one, CALLS, f)) - idle) / CALLS);
  }
  const base = median(per["tools/call"]!);
  console.log(`server CPU per call (median of ${ROUNDS} rounds of ${CALLS} pipelined calls, 1 KiB of text each):`);
  for (const k of Object.keys(kinds))
    console.log(
      `  ${k.padEnd(15)} ${median(per[k]!).toFixed(1)} µs  (${(median(per[k]!) / base).toFixed(2)}× tools/call)`,
    );
  const s0: number[] = [];
  const s1: number[] = [];
  for (let r = 0; r < 5 * ROUNDS; r++) {
    s0.push(await start(one));
    s1.push(await start(thousand));
  }
  console.log(
    `spawn → initialize (median of ${5 * ROUNDS}): 1 resource ${median(s0).toFixed(1)} ms, 1,001 resources ${median(s1).toFixed(1)} ms (${(median(s1) / median(s0)).toFixed(2)}×)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
