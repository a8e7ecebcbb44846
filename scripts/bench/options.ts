// What one run of the bench harness (scripts/bench/harness.ts) does and what it reports: options, defaults, results.
/** What one harness run does. */
export interface BenchOptions {
  name: string;
  cmd: string[];
  cwd?: string;
  env?: Record<string, string>;
  cold: number;
  seq: number;
  warmup: number;
  pipe: number;
  /** full: results must be x+y; id: only ids (the fixed-answer baseline). */
  check: "full" | "id";
  protocolVersion: string;
  /** legacy: initialize handshake; modern: 2026-07-28 (server/discover, per-request _meta). */
  era: "legacy" | "modern";
  timeoutMs: number;
  /** Only the cold phase (for servers without add_numbers). */
  coldOnly: boolean;
  /** The cold first call: tool name, arguments, expected content[0].text. */
  call: { name: string; arguments: Record<string, unknown>; expect: string };
  quiet?: boolean;
}

/** Latency percentiles in µs. */
export interface SeqStats {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  cpu_us_per_call: number | null;
}

/** One JSON line per run. */
export interface BenchResult {
  name: string;
  cmd: string[];
  ok: boolean;
  errors: string[];
  era: string;
  cold_init_ms: { min: number; median: number; all: number[] };
  cold_first_call_ms: { min: number; median: number };
  seq_us: SeqStats;
  seq_pinned: boolean;
  pipe: {
    calls: number;
    seconds: number;
    calls_per_s: number;
    server_cpu_s: number | null;
    cpu_us_per_call: number | null;
  };
  rss_kb: { hwm: number | null; rss_end: number | null; after_init_kb: number | null };
  protocolVersion_negotiated: string | null;
  when: string;
}

export const DEFAULTS: Omit<BenchOptions, "name" | "cmd"> = {
  cold: 20,
  seq: 2000,
  warmup: 1000,
  pipe: 20000,
  check: "full",
  protocolVersion: "2025-06-18",
  era: "legacy",
  timeoutMs: 180_000,
  coldOnly: false,
  call: { name: "add_numbers", arguments: { x: 20, y: 22 }, expect: "42" },
};
