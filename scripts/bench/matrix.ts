/** The servers scripts/bench.ts measures side by side: mcpbin's builds, the raw baseline and the peers. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { BenchOptions } from "./harness.ts";

/** One server of the matrix. */
export interface Entry {
  /** Label in tables and the chart. */
  name: string;
  /** Short group label: "mcpbin", "baseline" or "peer". */
  group: "mcpbin" | "baseline" | "peer";
  cmd: string[];
  /** Harness options for this server. */
  options: Partial<BenchOptions>;
  /** Key for the targets: which mcpbin server this is. */
  role?: "bench" | "realistic" | "many" | "many-lazy" | "toolkit" | "baseline";
}

/** Paths of the servers scripts/bench.ts builds itself. */
export interface Built {
  baseline: string;
  bench: string;
  /** The 16-tool server shaped like a real one (examples/bench/realistic.ts, issue 20). */
  realistic: string;
  many: string;
  /** The same 200 tools with their input schemas given as functions. */
  manyLazy: string;
  toolkit: string;
}

const MODERN = { era: "modern" } as const;
const TOOLKIT_CALL = { name: "convert_units", arguments: { value: 100, from: "C", to: "F" }, expect: "100 C = 212 F" };

/** The mcpbin servers and the baseline, in both eras. */
export function ownEntries(b: Built): Entry[] {
  return [
    {
      name: "baseline (raw Bun echo, compiled)",
      group: "baseline",
      cmd: [b.baseline],
      options: { check: "id" },
      role: "baseline",
    },
    { name: "mcpbin add_numbers/echo", group: "mcpbin", cmd: [b.bench], options: {}, role: "bench" },
    { name: "mcpbin 16 tools, realistic", group: "mcpbin", cmd: [b.realistic], options: {}, role: "realistic" },
    { name: "mcpbin 200 tools", group: "mcpbin", cmd: [b.many], options: {}, role: "many" },
    {
      name: "mcpbin 200 tools, lazy schemas",
      group: "mcpbin",
      cmd: [b.manyLazy],
      options: { coldOnly: true },
      role: "many-lazy",
    },
    {
      name: "mcpbin toolkit example",
      group: "mcpbin",
      cmd: [b.toolkit],
      options: { coldOnly: true, call: TOOLKIT_CALL },
      role: "toolkit",
    },
    {
      name: "baseline [2026-07-28]",
      group: "baseline",
      cmd: [b.baseline],
      options: { check: "id", ...MODERN },
      role: "baseline",
    },
    { name: "mcpbin add_numbers/echo [2026-07-28]", group: "mcpbin", cmd: [b.bench], options: MODERN, role: "bench" },
    {
      name: "mcpbin 16 tools, realistic [2026-07-28]",
      group: "mcpbin",
      cmd: [b.realistic],
      options: MODERN,
      role: "realistic",
    },
    { name: "mcpbin 200 tools [2026-07-28]", group: "mcpbin", cmd: [b.many], options: MODERN, role: "many" },
  ];
}

/** The peers installed by scripts/bench/setup-peers.sh in `peers` (default /tmp/peers). */
export function peerEntries(peers: string): Entry[] {
  const bun = join(peers, "node_modules/.bin/bun");
  const s = (f: string) => join(peers, "servers", f);
  const bin = (f: string) => join(peers, "bin", f);
  const entries: Entry[] = [
    { name: "sdk-v1 @node", group: "peer", cmd: ["node", s("sdk-v1.mjs")], options: {} },
    { name: "sdk-v1 @bun compiled+bytecode", group: "peer", cmd: [bin("sdk-v1-bytecode")], options: {} },
    { name: "sdk-v2 @node", group: "peer", cmd: ["node", s("sdk-v2.mjs")], options: {} },
    { name: "sdk-v2 @bun compiled", group: "peer", cmd: [bin("sdk-v2")], options: {} },
    { name: "tmcp @node", group: "peer", cmd: ["node", s("tmcp.mjs")], options: {} },
    { name: "tmcp @bun compiled", group: "peer", cmd: [bin("tmcp")], options: {} },
    { name: "fastmcp @node", group: "peer", cmd: ["node", s("fastmcp.mjs")], options: {} },
    { name: "sdk-v2 @node [2026-07-28]", group: "peer", cmd: ["node", s("sdk-v2.mjs")], options: MODERN },
    { name: "sdk-v2 @bun compiled [2026-07-28]", group: "peer", cmd: [bin("sdk-v2")], options: MODERN },
    { name: "tmcp @node [2026-07-28]", group: "peer", cmd: ["node", s("tmcp.mjs")], options: MODERN },
    { name: "tmcp @bun compiled [2026-07-28]", group: "peer", cmd: [bin("tmcp")], options: MODERN },
  ];
  return entries.filter(() => existsSync(bun));
}

/** What is missing for the peers, or undefined when they are installed. */
export function missingPeers(peers: string): string | undefined {
  const need = [
    "node_modules/.bin/bun",
    "servers/sdk-v1.mjs",
    "servers/fastmcp.mjs",
    "bin/sdk-v1-bytecode",
    "bin/sdk-v2",
    "bin/tmcp",
    "node_modules/fastmcp",
    "node_modules/tmcp",
  ];
  const missing = need.filter((p) => !existsSync(join(peers, p)));
  return missing.length ? missing.map((p) => join(peers, p)).join(", ") : undefined;
}
