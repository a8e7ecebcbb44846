/** Draws the comparison as one self-contained SVG (no dependencies): a panel per metric, a bar per server, log-scaled ratio to the baseline. */
import { METRICS, ratioText, type MetricKey, type Row } from "./report.ts";

/** The dashed line of each panel: issue 20's limits (the realistic server). */
const LIMITS: Record<MetricKey, number> = { coldInit: 1.5, firstCall: 1.5, cpu: 2, p50: 1.2, hwm: 1.3 };
const COLORS = { mcpbin: "#d9480f", baseline: "#495057", peer: "#74c0fc" } as const;

function esc(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/**
 * Renders the chart.
 * @param rows - aggregated rows (servers without a value for a metric are left out of its panel).
 * @param title - the heading line (command, machine).
 * @returns the SVG document text.
 */
export function drawChart(rows: Row[], title: string): string {
  const labelW = 300;
  const plotW = 520;
  const valueW = 170;
  const barH = 14;
  const gap = 4;
  const width = labelW + plotW + valueW;
  const maxRatio = Math.max(2, ...rows.flatMap((r) => METRICS.map((m) => r.ratio[m.key]).filter(Number.isFinite)));
  const lo = Math.log10(0.5);
  const hi = Math.log10(maxRatio * 1.15);
  const xOf = (ratio: number) => labelW + ((Math.log10(Math.max(ratio, 0.5)) - lo) / (hi - lo)) * plotW;
  const ticks = [0.5, 1, 2, 5, 10, 20, 50, 100, 200].filter((t) => t <= maxRatio * 1.15);
  const parts: string[] = [];
  let y = 46;
  for (const m of METRICS) {
    const panel = rows.filter((r) => Number.isFinite(r.value[m.key]) && Number.isFinite(r.ratio[m.key]));
    if (panel.length === 0) continue;
    parts.push(
      `<text x="8" y="${y}" class="h">${esc(m.label)} — ratio to the raw baseline of the same era (log scale; dashed: target ≤ ${LIMITS[m.key]}×)</text>`,
    );
    y += 10;
    const top = y;
    const bottom = top + panel.length * (barH + gap);
    for (const t of ticks) {
      const x = xOf(t).toFixed(1);
      parts.push(
        `<line x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" class="grid"/><text x="${x}" y="${bottom + 11}" class="tick">${t}×</text>`,
      );
    }
    const tx = xOf(LIMITS[m.key]).toFixed(1);
    parts.push(`<line x1="${tx}" y1="${top - 2}" x2="${tx}" y2="${bottom}" class="target"/>`);
    for (const r of panel) {
      const x0 = xOf(0.5);
      const x1 = xOf(r.ratio[m.key]);
      const color = COLORS[r.entry.group];
      parts.push(
        `<text x="${labelW - 6}" y="${y + barH - 3}" class="lbl${r.entry.group === "mcpbin" ? " own" : ""}">${esc(r.entry.name)}</text>` +
          `<rect x="${x0.toFixed(1)}" y="${y}" width="${Math.max(1, x1 - x0).toFixed(1)}" height="${barH}" fill="${color}"/>` +
          `<text x="${labelW + plotW + 6}" y="${y + barH - 3}" class="val">${r.value[m.key].toFixed(m.digits)} ${m.unit} (${ratioText(r.ratio[m.key])})</text>`,
      );
      y += barH + gap;
    }
    y += 34;
  }
  const height = y;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif">
<style>
.t{font-size:15px;font-weight:600}.s{font-size:11px;fill:#495057}.h{font-size:13px;font-weight:600}
.lbl{font-size:11px;text-anchor:end;fill:#212529}.own{font-weight:700;fill:#d9480f}.val{font-size:11px;fill:#212529}
.tick{font-size:10px;text-anchor:middle;fill:#868e96}.grid{stroke:#e9ecef;stroke-width:1}.target{stroke:#c92a2a;stroke-width:1.5;stroke-dasharray:4 3}
</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="8" y="20" class="t">mcpbin vs the raw baseline and the peer MCP servers (stdio)</text>
<text x="8" y="36" class="s">${esc(title)}</text>
${parts.join("\n")}
</svg>
`;
}
