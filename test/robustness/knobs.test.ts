// The knobs of issue 8 (timeoutMs, maxInFlight, maxResultBytes, maxLineBytes, shutdownGraceMs): bad values fail at start with what to change.
import { describe, expect, test } from "bun:test";
import { serve, tool } from "../../src/index.ts";
import { DEFAULTS } from "../../src/server/options.ts";

const base = { name: "knobs", version: "1.0.0", tools: [] };

describe("knobs", () => {
  test("out-of-range serve() knobs throw before anything is read, naming the knob and the range", () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ maxInFlight: 0 }, /"maxInFlight" must be an integer ≥ 1; got 0/],
      [{ maxInFlight: 2.5 }, /"maxInFlight"/],
      [{ timeoutMs: -1 }, /"timeoutMs" must be a number of milliseconds from 0/],
      [{ timeoutMs: 3_000_000_000 }, /2147483647; got 3000000000/],
      [{ timeoutMs: Number.NaN }, /got NaN/],
      [{ shutdownGraceMs: "5" }, /"shutdownGraceMs" .* got "5"/],
      [{ maxResultBytes: 0 }, /"maxResultBytes"/],
      [{ maxLineBytes: Infinity }, /"maxLineBytes"/],
    ];
    for (const [o, msg] of cases) expect(() => serve({ ...base, ...o } as never)).toThrow(msg);
  });

  test("tool({ timeoutMs }) must be from 0 (no limit) to what fits a timer", () => {
    for (const timeoutMs of [-5, Number.NaN, Infinity, 2 ** 31, "5s"]) {
      expect(() => tool({ name: "t", description: "t", timeoutMs: timeoutMs as number, run: () => 1 })).toThrow(
        /tool "t": timeoutMs must be a number of milliseconds from 0 \(no limit\) to 2147483647 .*; got /,
      );
    }
    expect(tool({ name: "t", description: "t", timeoutMs: 2 ** 31 - 1, run: () => 1 }).definition.timeoutMs).toBe(
      2 ** 31 - 1,
    );
    expect(tool({ name: "t", description: "t", timeoutMs: 0, run: () => 1 }).definition.timeoutMs).toBe(0);
  });

  test("the reference guide's table states the defaults", async () => {
    const readme = await Bun.file(new URL("../../docs/reference.md", import.meta.url)).text();
    const row = (k: string) => readme.split("\n").find((l) => l.startsWith(`| \`${k}\``)) ?? "";
    expect(row("timeoutMs")).toContain(`| ${DEFAULTS.timeoutMs} |`);
    expect(row("maxInFlight")).toContain(`| ${DEFAULTS.maxInFlight} |`);
    expect(row("maxResultBytes")).toContain(`| ${DEFAULTS.maxResultBytes / 2 ** 20} MiB |`);
    expect(row("maxLineBytes")).toContain(`| ${DEFAULTS.maxLineBytes / 2 ** 20} MiB |`);
    expect(row("shutdownGraceMs")).toContain(`| ${DEFAULTS.shutdownGraceMs} |`);
  });
});
