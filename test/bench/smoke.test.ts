// The benchmark's smoke mode (scripts/bench.ts --smoke) completes and every server it measures answers correctly; no timing is asserted.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, META, McpProcess, ROOT } from "../helpers/proc.ts";

let out: string;
let run: { code: number; stdout: string; stderr: string };
const procs: McpProcess[] = [];

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "mcpbin-bench-smoke-"));
  const p = Bun.spawn([BUN, join(ROOT, "scripts/bench.ts"), "--smoke", "--out-dir", out], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stdout, stderr] = await Promise.all([
    p.exited,
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
  ]);
  run = { code, stdout, stderr };
}, 120_000);
afterAll(() => {
  for (const p of procs) p.kill();
  rmSync(out, { recursive: true, force: true });
});

const OWN = [
  "baseline (raw Bun echo, compiled)",
  "mcpbin add_numbers/echo",
  "mcpbin 16 tools, realistic",
  "mcpbin 200 tools",
  "mcpbin 200 tools, lazy schemas",
  "mcpbin toolkit example",
  "baseline [2026-07-28]",
  "mcpbin add_numbers/echo [2026-07-28]",
  "mcpbin 16 tools, realistic [2026-07-28]",
  "mcpbin 200 tools [2026-07-28]",
];

test("--smoke completes: every server measured, every response checked (ids, x+y, echo)", () => {
  if (run.code !== 0) throw new Error(`bench --smoke exited ${run.code}:\n${run.stderr.slice(-3000)}`);
  const results = readFileSync(join(out, "benchmarks.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(results.map((r) => r.name)).toEqual(OWN);
  for (const r of results) {
    expect({ name: r.name, ok: r.ok, errors: r.errors }).toEqual({ name: r.name, ok: true, errors: [] });
    expect(r.cold_init_ms.all.length).toBe(2);
  }
  const negotiated = Object.fromEntries(
    results
      .filter((r) => r.name.startsWith("mcpbin") && !r.name.includes("toolkit") && !r.name.includes("lazy"))
      .map((r) => [r.name, r.protocolVersion_negotiated]),
  );
  expect(negotiated).toEqual({
    "mcpbin add_numbers/echo": "2025-06-18",
    "mcpbin 16 tools, realistic": "2025-06-18",
    "mcpbin 200 tools": "2025-06-18",
    "mcpbin add_numbers/echo [2026-07-28]": "2026-07-28",
    "mcpbin 16 tools, realistic [2026-07-28]": "2026-07-28",
    "mcpbin 200 tools [2026-07-28]": "2026-07-28",
  });
  for (const r of results.filter((x) => !x.name.includes("toolkit") && !x.name.includes("lazy"))) {
    expect(r.seq_us.p50).toBeGreaterThan(0);
    expect(r.pipe.calls_per_s).toBeGreaterThan(0);
    expect(r.rss_kb.hwm).toBeGreaterThan(0);
  }
});

test("--smoke writes the report: the targets, a row per server, and the chart", () => {
  const md = readFileSync(join(out, "benchmarks.md"), "utf8");
  expect(md).toContain("bun scripts/bench.ts --smoke");
  expect(md).toContain("| target (ratio to the raw baseline, same run)");
  expect(md).toMatch(/Machine: \d+ × .+ GiB, Linux .+, Bun \d/);
  for (const name of OWN) expect(md).toContain(`| ${name.startsWith("mcpbin") ? `**${name}**` : name} |`);
  const svg = readFileSync(join(out, "benchmarks.svg"), "utf8");
  expect(svg.startsWith("<svg")).toBe(true);
  expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
  expect(svg).toContain("mcpbin 200 tools [2026-07-28]");
});

test("the benchmark's builds answer valid responses in both eras (official schemas)", async () => {
  const bench = new McpProcess([join(ROOT, ".bench-build/bench-mcpbin")]);
  procs.push(bench);
  await bench.handshake("2025-06-18");
  const r = await bench.request("tools/call", { name: "add_numbers", arguments: { x: 2, y: 3 } }, 2, "2025-06-18");
  expect(r.result.content).toEqual([{ type: "text", text: "5" }]);

  const many = new McpProcess([join(ROOT, ".bench-build/many-tools")]);
  procs.push(many);
  const list = await many.request("tools/list", { _meta: META }, 1, "2026-07-28");
  expect(list.result.tools.length).toBe(200);
  const call = await many.request(
    "tools/call",
    { name: "get_issue_0", arguments: { id: "A-1" }, _meta: META },
    2,
    "2026-07-28",
  );
  expect(JSON.parse(call.result.content[0].text)).toEqual({
    id: "A-1",
    kind: "issue",
    verb: "get",
    limit: 20,
    sort: "desc",
  });
});

test("the realistic 16-tool build serves what it claims: a sleep with progress, big results, the raw-schema tool", async () => {
  const p = new McpProcess([join(ROOT, ".bench-build/realistic")]);
  procs.push(p);
  await p.handshake("2025-11-25");
  const list = (await p.request("tools/list", {}, 2, "2025-11-25")).result;
  expect(list.tools.length).toBe(16);
  const call = async (name: string, args: Record<string, unknown>, id: number) =>
    (await p.request("tools/call", { name, arguments: args }, id, "2025-11-25")).result;
  expect((await call("sleep", { ms: 5 }, 3)).content).toEqual([{ type: "text", text: "slept 5 ms" }]);
  expect((await call("big_text", {}, 4)).content[0].text.length).toBe(65536);
  expect((await call("big_table", {}, 5)).structuredContent.rows.length).toBe(200);
  expect(JSON.parse((await call("query_records", { table: "users", limit: 5 }, 6)).content[0].text)).toEqual({
    table: "users",
    rows: [],
  });
  const bad = await call("query_records", { table: "nope" }, 7);
  expect(bad.isError).toBe(true);
  expect(bad.content[0].text).toContain("table");
});

test("schemas converted at build time (mcpbin build) list exactly as converting at start does", async () => {
  const listOf = async (p: McpProcess) => {
    procs.push(p);
    await p.handshake("2025-11-25");
    return (await p.request("tools/list", {}, 2, "2025-11-25")).result;
  };
  const built = await listOf(new McpProcess([join(ROOT, ".bench-build/many-tools")]));
  const source = await listOf(McpProcess.source("examples/bench/many-tools.ts"));
  expect(built.tools.length).toBe(200);
  expect(built).toEqual(source);
  // Schemas given as functions: recorded at build time under their own key, listed the same.
  expect(await listOf(new McpProcess([join(ROOT, ".bench-build/many-tools-lazy")]))).toEqual(source);
  expect(built.tools[2].inputSchema.properties.sort).toEqual({
    type: "string",
    enum: ["asc", "desc"],
    default: "desc",
  });
});

test("scripts/bench-warm.ts runs on the smoke builds: a row per server, era, JIT setting and burst, every response checked", async () => {
  // Tiny bursts: this checks the script and the harness's env passing, not a figure.
  const p = Bun.spawn([BUN, join(ROOT, "scripts/bench-warm.ts"), "--rounds", "1", "--short", "200", "--long", "400"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stdout, stderr] = await Promise.all([
    p.exited,
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
  ]);
  if (code !== 0) throw new Error(`bench-warm exited ${code}:\n${stderr.slice(-3000)}`);
  const rows = stdout.split("\n").filter((l) => /^\| (add_numbers\/echo|16 tools, realistic) \|/.test(l));
  expect(rows.length).toBe(2 * 2 * 2 * 2);
  for (const era of ["legacy", "2026-07-28"])
    for (const jit of ["default", "no FTL"])
      for (const calls of ["200", "400"])
        expect(rows.filter((r) => r.includes(`| ${era} | ${jit} | ${calls} |`)).length).toBe(2);
  for (const r of rows) expect(Number(r.split("|")[7]!.trim().replace("×", ""))).toBeGreaterThan(0);
  // Each run is reported on stderr, the FTL-off ones too.
  expect(stderr).toContain("no FTL 400 calls");
}, 120_000);
