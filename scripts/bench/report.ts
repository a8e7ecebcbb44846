/** Aggregates harness results over rounds, computes ratios to the same-era baseline, checks the targets, renders the markdown. */
import type { BenchResult } from "./harness.ts";
import type { Entry } from "./matrix.ts";

/** The metrics compared, in table and chart order. */
export const METRICS = [
  { key: "coldInit", label: "spawn → initialize ms", unit: "ms", digits: 1 },
  { key: "firstCall", label: "spawn → first tools/call ms", unit: "ms", digits: 1 },
  { key: "cpu", label: "server CPU µs per tools/call", unit: "µs", digits: 1 },
  { key: "p50", label: "sequential p50 µs (1 core)", unit: "µs", digits: 0 },
  { key: "hwm", label: "peak RSS MiB after 20k pipelined calls", unit: "MiB", digits: 1 },
] as const;

export type MetricKey = (typeof METRICS)[number]["key"];

/** One server's medians over the rounds, with ratios to its era's baseline. */
export interface Row {
  entry: Entry;
  era: "legacy" | "modern";
  rounds: number;
  failed: number;
  errors: string[];
  value: Record<MetricKey, number>;
  ratio: Record<MetricKey, number>;
  callsPerSecond: number;
  p99: number;
}

/** A target of issue 6 or 20 and whether it was met. */
export interface Target {
  /** The issue that set it. */
  issue: number;
  what: string;
  ratio: number;
  limit: number;
  met: boolean;
}

function median(xs: number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Medians per server over rounds (failed runs left out) and ratios to the baseline of the same era.
 * @param entries - the matrix, in display order.
 * @param results - every harness result line of the run.
 */
export function aggregate(entries: Entry[], results: BenchResult[]): Row[] {
  const rows = entries.map((entry): Row => {
    const rs = results.filter((r) => r.name === entry.name);
    const good = rs.filter((r) => r.ok);
    const value = {
      coldInit: median(good.map((r) => r.cold_init_ms.median)),
      firstCall: median(good.map((r) => r.cold_first_call_ms.median)),
      cpu: median(good.map((r) => r.pipe.cpu_us_per_call ?? NaN)),
      p50: median(good.map((r) => r.seq_us.p50)),
      hwm: median(good.map((r) => (r.rss_kb.hwm ?? NaN) / 1024)),
    };
    return {
      entry,
      era: entry.options.era ?? "legacy",
      rounds: good.length,
      failed: rs.length - good.length,
      errors: rs.flatMap((r) => r.errors),
      value,
      ratio: { coldInit: NaN, firstCall: NaN, cpu: NaN, p50: NaN, hwm: NaN },
      callsPerSecond: median(good.map((r) => r.pipe.calls_per_s)),
      p99: median(good.map((r) => r.seq_us.p99)),
    };
  });
  for (const row of rows) {
    const base = rows.find((r) => r.entry.role === "baseline" && r.era === row.era);
    if (!base) continue;
    for (const m of METRICS) row.ratio[m.key] = row.value[m.key] / base.value[m.key];
  }
  return rows;
}

/** Issue 20's limits for the realistic 16-tool server (issue 6's for the two-tool server are looser on CPU and latency). */
const LIMITS_6 = { coldInit: 1.5, firstCall: 1.5, cpu: 3, p50: 1.3, hwm: 1.3 } as const;
const LIMITS_20 = { coldInit: 1.5, firstCall: 1.5, cpu: 2, p50: 1.2, hwm: 1.3 } as const;

/** The issues' targets, checked against the rows (ratios to the raw baseline of the same run). */
export function checkTargets(rows: Row[]): Target[] {
  const out: Target[] = [];
  const add = (issue: number, what: string, ratio: number, limit: number) =>
    out.push({ issue, what, ratio, limit, met: Number.isFinite(ratio) && ratio <= limit });
  for (const [role, issue, limits, label] of [
    ["bench", 6, LIMITS_6, "add_numbers/echo"],
    ["realistic", 20, LIMITS_20, "16 tools, realistic"],
  ] as const) {
    for (const era of ["legacy", "modern"] as const) {
      const r = rows.find((x) => x.entry.role === role && x.era === era);
      if (!r) continue;
      const tag = `${label}${era === "modern" ? ", 2026-07-28" : ""}`;
      add(
        issue,
        `${tag}: spawn → ${era === "modern" ? "server/discover" : "initialize"} response`,
        r.ratio.coldInit,
        limits.coldInit,
      );
      add(issue, `${tag}: spawn → first tools/call response`, r.ratio.firstCall, limits.firstCall);
      add(issue, `${tag}: server CPU per tools/call`, r.ratio.cpu, limits.cpu);
      add(issue, `${tag}: sequential p50, one core`, r.ratio.p50, limits.p50);
      add(issue, `${tag}: peak RSS after the pipelined calls`, r.ratio.hwm, limits.hwm);
    }
  }
  const many = rows.find((x) => x.entry.role === "many" && x.era === "legacy");
  if (many) add(20, "200-tool server, schemas built at start: spawn → initialize", many.ratio.coldInit, 2);
  const lazy = rows.find((x) => x.entry.role === "many-lazy" && x.era === "legacy");
  if (lazy)
    add(
      6,
      "200-tool server, schemas as functions (`input: () => v.object(…)`): spawn → initialize",
      lazy.ratio.coldInit,
      2,
    );
  return out;
}

function fmt(x: number, digits: number): string {
  if (!Number.isFinite(x)) return "—";
  return x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
/** `1.23×` style ratio text. */
export function ratioText(r: number): string {
  if (!Number.isFinite(r)) return "";
  return `${r >= 10 ? r.toFixed(0) : r >= 2 ? r.toFixed(1) : r.toFixed(2)}×`;
}

/** The results table (markdown), one row per server, value (ratio) per metric. */
export function markdownTable(rows: Row[]): string {
  let out = `| server | ${METRICS.map((m) => m.label).join(" | ")} | pipelined calls/s | seq p99 µs | runs ok |\n`;
  out += `|---|${METRICS.map(() => "---:").join("|")}|---:|---:|---:|\n`;
  for (const r of rows) {
    const cells = METRICS.map((m) => {
      const v = r.value[m.key];
      const ratio = r.entry.role === "baseline" || !Number.isFinite(v) ? "" : ` (${ratioText(r.ratio[m.key])})`;
      return `${fmt(v, m.digits)}${ratio}`;
    });
    const name = r.entry.group === "mcpbin" ? `**${r.entry.name}**` : r.entry.name;
    out += `| ${name} | ${cells.join(" | ")} | ${fmt(r.callsPerSecond, 0)} | ${fmt(r.p99, 0)} | ${r.rounds}/${r.rounds + r.failed} |\n`;
  }
  const failures = rows
    .filter((r) => r.failed > 0)
    .map((r) => `- ${r.entry.name}: ${r.errors.join(" | ").slice(0, 300)}`);
  if (failures.length) out += `\nFailed runs:\n${failures.join("\n")}\n`;
  return out;
}

/** The targets as a markdown table. */
export function markdownTargets(targets: Target[]): string {
  let out = "| target (ratio to the raw baseline, same run) | measured | limit | met |\n|---|---:|---:|:---:|\n";
  for (const t of targets)
    out += `| ${t.what} | ${ratioText(t.ratio) || "—"} | ≤ ${t.limit}× | ${t.met ? "yes" : "**no**"} |\n`;
  return out;
}
