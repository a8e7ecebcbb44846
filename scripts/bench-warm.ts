// Server CPU per tools/call after a short burst and after a long one, with and without JavaScriptCore's top JIT tier: how much of the benchmark's per-call CPU is the JIT compiling the hot path (docs/benchmarks.md, issue 20).
//
//   bun scripts/bench-warm.ts [--rounds 3] [--short 20000] [--long 200000] [--write]
//
// Uses the executables scripts/bench.ts built in .bench-build (run it, or `bun scripts/bench.ts --smoke`, first).
// Per round, alternating: the raw baseline, the add_numbers/echo server and the realistic 16-tool server, each
// in both eras, each with a burst of --short and of --long pipelined calls, each with JavaScriptCore's defaults
// and with `BUN_JSC_useFTLJIT=0` (no FTL, the top tier). The harness's figure is the CPU of every thread of the
// server (/proc/PID/task/*/schedstat, JIT compiler threads included) ÷ calls. Each value is the median over rounds.
// --write replaces the generated block in docs/benchmarks.md and draws docs/bench-warm.svg.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { BenchResult } from "./bench/harness.ts";

const ROOT = resolve(import.meta.dir, "..");
const BUN = process.execPath;
const HARNESS = join(ROOT, "scripts/bench/harness.ts");
const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    short: { type: "string", default: "20000" },
    long: { type: "string", default: "200000" },
    write: { type: "boolean", default: false },
  },
});
const rounds = Number(args.rounds);
const bursts = [Number(args.short), Number(args.long)];
const bin = (n: string) => join(ROOT, ".bench-build", n);
const servers = [
  { name: "baseline", exe: bin("baseline-bun"), check: "id" },
  { name: "mcpbin add_numbers/echo", exe: bin("bench-mcpbin"), check: "full" },
  { name: "mcpbin 16 tools, realistic", exe: bin("realistic"), check: "full" },
];
for (const s of servers)
  if (!existsSync(s.exe)) {
    process.stderr.write(`bench-warm: ${s.exe} is missing; build the servers first: bun scripts/bench.ts --smoke\n`);
    process.exit(2);
  }
const eras = ["legacy", "modern"] as const;
const jits = [
  { name: "default", env: {} as Record<string, string> },
  { name: "no FTL", env: { BUN_JSC_useFTLJIT: "0" } },
];

const tmp = mkdtempSync(join(tmpdir(), "mcpbin-bench-warm-"));
const samples = new Map<string, number[]>();
const key = (s: string, era: string, jit: string, calls: number) => `${s}|${era}|${jit}|${calls}`;
const loadStart = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
try {
  for (let round = 1; round <= rounds; round++)
    for (const calls of bursts)
      for (const era of eras)
        for (const jit of jits)
          for (const s of servers) {
            const options = {
              cold: 1,
              warmup: 100,
              seq: 200,
              pipe: calls,
              check: s.check,
              era,
              env: jit.env,
              name: s.name,
            };
            const r = spawnSync(BUN, [HARNESS, "--options", JSON.stringify(options), "--", s.exe], {
              cwd: tmp,
              encoding: "utf8",
              stdio: ["ignore", "pipe", "ignore"],
            });
            const res = JSON.parse(r.stdout.trim().split("\n").pop() ?? "{}") as BenchResult;
            const cpu = res.pipe?.cpu_us_per_call;
            if (!res.ok || typeof cpu !== "number")
              throw new Error(`${s.name} ${era} ${jit.name} ${calls}: ${JSON.stringify(res.errors ?? res)}`);
            const k = key(s.name, era, jit.name, calls);
            samples.set(k, [...(samples.get(k) ?? []), cpu]);
            process.stderr.write(
              `bench-warm: [${round}/${rounds}] ${s.name} ${era} ${jit.name} ${calls} calls: ${cpu.toFixed(2)} µs/call\n`,
            );
          }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const loadEnd = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const m = (s: string, era: string, jit: string, calls: number) => median(samples.get(key(s, era, jit, calls))!);
const fmt = (n: number) => n.toLocaleString("en-US");
const rows: { label: string; era: string; jit: string; calls: number; us: number; ratio: number }[] = [];
for (const era of eras)
  for (const jit of jits)
    for (const calls of bursts)
      for (const s of servers.slice(1)) {
        const us = m(s.name, era, jit.name, calls);
        rows.push({
          label: s.name.replace("mcpbin ", ""),
          era,
          jit: jit.name,
          calls,
          us,
          ratio: us / m("baseline", era, jit.name, calls),
        });
      }
const header = `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${rounds} rounds (median), load average ${loadStart} → ${loadEnd}`;
const table = [
  "| server | era | JIT | calls in the burst | baseline µs/call | server µs/call | ratio |",
  "|---|---|---|---:|---:|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${r.label} | ${r.era === "modern" ? "2026-07-28" : "legacy"} | ${r.jit} | ${fmt(r.calls)} | ${m("baseline", r.era, r.jit, r.calls).toFixed(2)} | ${r.us.toFixed(2)} | ${r.ratio.toFixed(2)}× |`,
  ),
].join("\n");
process.stdout.write(`${header}\n\n${table}\n`);

if (args.write) {
  writeFileSync(join(ROOT, "docs/bench-warm.svg"), draw(rows, header));
  const doc = join(ROOT, "docs/benchmarks.md");
  const start = "<!-- bench-warm:begin (generated by scripts/bench-warm.ts --write) -->";
  const end = "<!-- bench-warm:end -->";
  const text = readFileSync(doc, "utf8");
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < 0) throw new Error(`docs/benchmarks.md has no ${start} … ${end} block`);
  const block = `${start}\nMeasured ${header}.\n\n${table}\n\n![Server CPU per call after a short and a long burst, with and without the FTL](bench-warm.svg)\n${end}`;
  writeFileSync(doc, text.slice(0, i) + block + text.slice(j + end.length));
  process.stderr.write("written: docs/benchmarks.md, docs/bench-warm.svg\n");
}

/** One bar per row: its ratio to the baseline, the 2× limit as a dashed line. Self-contained SVG. */
function draw(rs: typeof rows, title: string): string {
  const labelW = 390;
  const plotW = 420;
  const valueW = 150;
  const barH = 14;
  const gap = 5;
  const max = Math.max(2.2, ...rs.map((r) => r.ratio)) * 1.05;
  const x = (v: number) => (v / max) * plotW;
  const esc = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  const parts: string[] = [];
  let y = 48;
  for (const r of rs) {
    const color =
      r.calls === bursts[0]
        ? r.jit === "default"
          ? "#d9480f"
          : "#ffa94d"
        : r.jit === "default"
          ? "#1864ab"
          : "#74c0fc";
    const label = `${r.label}, ${r.era === "modern" ? "2026-07-28" : "legacy"}, ${r.jit}, ${fmt(r.calls)} calls`;
    parts.push(`<text x="${labelW - 8}" y="${y + 11}" class="l">${esc(label)}</text>`);
    parts.push(`<rect x="${labelW}" y="${y}" width="${x(r.ratio).toFixed(1)}" height="${barH}" fill="${color}"/>`);
    parts.push(`<text x="${labelW + plotW + 8}" y="${y + 11}">${r.ratio.toFixed(2)}× (${r.us.toFixed(2)} µs)</text>`);
    y += barH + gap;
  }
  const limit = (labelW + x(2)).toFixed(1);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + plotW + valueW}" height="${y + 16}" font-family="sans-serif" font-size="12">
<style>.l{text-anchor:end}.t{font-weight:bold}.s{fill:#495057;font-size:10px}</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="8" y="16" class="t">Server CPU per tools/call ÷ the raw baseline's, same burst and JIT settings (dashed: issue 20's 2× limit)</text>
<text x="8" y="32" class="s">${esc(title)}; orange: short burst, blue: long burst; light: BUN_JSC_useFTLJIT=0</text>
<line x1="${limit}" y1="40" x2="${limit}" y2="${y}" stroke="#212529" stroke-dasharray="4 3"/>
${parts.join("\n")}
</svg>
`;
}
