// The bar chart of scripts/bench-http.ts (docs/benchmarks-http.svg): requests/s and p99 latency per server.

/** One server's bar: its name, whether it is mcpbin, median requests/s and p99 ms. */
export interface HttpBar {
  name: string;
  own: boolean;
  rps: number;
  p99: number;
}

/**
 * The HTTP benchmark's numbers as a bar chart: requests/s (ratio to the raw echo) and p99, one bar per server.
 * @param rows - one bar per server, in the table's order.
 * @param base - the raw echo's requests/s: the ratios' base, and twice the target line.
 * @param title - the subtitle: when, where and how it was measured.
 * @returns the SVG document.
 */
export function drawHttpChart(rows: HttpBar[], base: number, title: string): string {
  const esc = (x: string) => x.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  const labelW = 300,
    plotW = 460,
    valueW = 170,
    barH = 14,
    gap = 4;
  const parts: string[] = [];
  let y = 46;
  const panel = (
    heading: string,
    value: (r: (typeof rows)[number]) => number,
    text: (r: (typeof rows)[number]) => string,
    limit?: number,
  ) => {
    parts.push(`<text x="8" y="${y}" class="h">${esc(heading)}</text>`);
    y += 10;
    const max = Math.max(...rows.map(value));
    if (limit !== undefined)
      parts.push(
        `<line x1="${labelW + (limit / max) * plotW}" y1="${y - 2}" x2="${labelW + (limit / max) * plotW}" y2="${y + rows.length * (barH + gap)}" class="target"/>`,
      );
    for (const r of rows) {
      const w = Math.max(1, (value(r) / max) * plotW);
      parts.push(
        `<text x="${labelW - 6}" y="${y + barH - 3}" class="lbl${r.own ? " own" : ""}">${esc(r.name)}</text><rect x="${labelW}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${r.own ? "#d9480f" : r.name.startsWith("raw") ? "#495057" : "#74c0fc"}"/><text x="${labelW + plotW + 6}" y="${y + barH - 3}" class="val">${esc(text(r))}</text>`,
      );
      y += barH + gap;
    }
    y += 30;
  };
  panel(
    "requests/s of tools/call (linear; dashed: 0.5× the raw echo, the target)",
    (r) => r.rps,
    (r) => `${r.rps.toFixed(0)}/s (${(r.rps / base).toFixed(2)}×)`,
    base * 0.5,
  );
  panel(
    "p99 latency ms under the same load (linear; lower is better)",
    (r) => r.p99,
    (r) => `${r.p99.toFixed(2)} ms`,
  );
  const width = labelW + plotW + valueW;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}" font-family="system-ui, -apple-system, Segoe UI, sans-serif">
<style>.t{font-size:15px;font-weight:600}.s{font-size:11px;fill:#495057}.h{font-size:13px;font-weight:600}.lbl{font-size:11px;text-anchor:end;fill:#212529}.own{font-weight:700;fill:#d9480f}.val{font-size:11px;fill:#212529}.target{stroke:#c92a2a;stroke-width:1.5;stroke-dasharray:4 3}</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="8" y="20" class="t">mcpbin over Streamable HTTP vs a raw Bun.serve echo and the official SDKs</text>
<text x="8" y="36" class="s">${esc(title)}</text>
${parts.join("\n")}
</svg>
`;
}
