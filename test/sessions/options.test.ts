// The `sessions` option: unknown keys and bad values stop serve() at start with what to change; the config file takes the key;
// MCPBIN_SESSION_TIMEOUT_MS overrides the timeout.
import { expect, test } from "bun:test";
import { createServer } from "../../src/serve/create-server.ts";
import { checkConfig } from "../../src/config/schema.ts";
import { resolveSessions } from "../../src/sessions/options.ts";

const base = { name: "s", version: "1.0.0", tools: [] };

test("serve({ sessions }) refuses an unknown key and a bad value, naming them", () => {
  expect(() => createServer({ ...base, sessions: { queu: 3 } as never })).toThrow(
    '"sessions.queu" is not a known key (did you mean "queue"?',
  );
  expect(() => createServer({ ...base, sessions: { timeoutMs: -1 } })).toThrow(
    '"sessions.timeoutMs" must be an integer number of milliseconds',
  );
  expect(() => createServer({ ...base, sessions: { workers: { module: "./w.ts", max: 0 } } })).toThrow(
    '"sessions.workers.max" must be an integer ≥ 1',
  );
  expect(() => createServer({ ...base, sessions: { workers: {} as never } })).toThrow(
    '"sessions.workers" must be { module: "./worker.ts", max?: 2 }',
  );
  expect(() => createServer({ ...base, sessions: "yes" as never })).toThrow('"sessions" must be true, or an object');
  expect(() => createServer({ ...base, sessions: true })).not.toThrow();
  expect(() =>
    createServer({ ...base, sessions: { timeoutMs: 5000, queue: 0, concurrency: 2, evalOverHttp: true } }),
  ).not.toThrow();
});

test("the config file takes `sessions` (and may then have no tools of its own)", () => {
  expect(() =>
    checkConfig({ name: "s", version: "1.0.0", tools: [], sessions: { queue: 8 } }, "mcpbin.config.ts"),
  ).not.toThrow();
  expect(() =>
    checkConfig({ name: "s", version: "1.0.0", tools: ["tools"], sessions: { qeue: 8 } }, "mcpbin.config.ts"),
  ).toThrow('"sessions.qeue" is not a known key');
});

test("defaults, and MCPBIN_SESSION_TIMEOUT_MS over the option", () => {
  expect(resolveSessions(true, {})).toMatchObject({
    timeoutMs: 120_000,
    queue: 64,
    concurrency: 1,
    evalOverHttp: false,
  });
  expect(resolveSessions({ timeoutMs: 5000 }, { MCPBIN_SESSION_TIMEOUT_MS: "250" }).timeoutMs).toBe(250);
  expect(() => resolveSessions({}, { MCPBIN_SESSION_TIMEOUT_MS: "soon" })).toThrow(
    'MCPBIN_SESSION_TIMEOUT_MS must be a whole number of milliseconds from 0 (no limit) to 2147483647; got "soon"',
  );
});
