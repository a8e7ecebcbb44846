// Config mistakes: every message names the file, the key and what is expected.
import { expect, test, afterAll } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { checkConfig } from "../../src/config/schema.ts";
import { defineConfig } from "../../src/index.ts";
import { writeProject, removeProjects } from "./fixture-project.ts";
import { HTTP_KEYS as HTTP_OPTION_KEYS } from "../../src/shared/server-keys.ts";

afterAll(removeProjects);

const base = { name: "s", version: "1.0.0", tools: ["tools"] };

function error(value: unknown): string {
  try {
    checkConfig(value, "my/mcpbin.config.ts");
  } catch (e) {
    expect((e as Error).name).toBe("ConfigError");
    return (e as Error).message;
  }
  throw new Error("no error");
}

test("defineConfig returns the config; a full config passes the check", () => {
  const c = defineConfig({
    ...base,
    title: "S",
    instructions: "i",
    include: ["a*"],
    exclude: ["b"],
    json: { bigint: "number" },
    timeoutMs: 0,
    maxInFlight: 4,
    maxResultBytes: 1000,
    maxLineBytes: 1000,
    shutdownGraceMs: 10,
  });
  expect(checkConfig(c, "x")).toBe(c);
});

test("each mistake names the file, the key and what is expected", () => {
  expect(error({ version: "1", tools: ["t"] })).toBe(
    'my/mcpbin.config.ts: "name" must be a non-empty string (the server name sent as serverInfo.name); got nothing',
  );
  expect(error({ ...base, version: 1 })).toBe(
    'my/mcpbin.config.ts: "version" must be a non-empty string such as "1.0.0"; got 1',
  );
  expect(error({ ...base, tools: "tools" })).toStartWith(
    'my/mcpbin.config.ts: "tools" must be a non-empty array of paths to tool modules or directories, relative to the config file',
  );
  expect(error({ ...base, tools: [] })).toContain('"tools" must be a non-empty array');
  expect(error({ ...base, tools: ["a", 3] })).toEndWith(
    '"tools[1]" must be a non-empty array of paths to tool modules or directories, relative to the config file (e.g. ["tools"]); got 3',
  );
  expect(error({ ...base, include: "admin_*" })).toBe(
    'my/mcpbin.config.ts: "include" must be an array of tool-name glob patterns (e.g. ["admin_*"]); got "admin_*"',
  );
  expect(error({ ...base, include: [] })).toContain('"include" is empty');
  expect(error({ ...base, timeoutMs: "5s" })).toBe(
    'my/mcpbin.config.ts: "timeoutMs" must be a number of milliseconds from 0 (no limit) to 2147483647; got "5s"',
  );
  expect(error({ ...base, maxInFlight: 0.5 })).toBe(
    'my/mcpbin.config.ts: "maxInFlight" must be an integer ≥ 1; got 0.5',
  );
  expect(error({ ...base, json: { bigint: "hex" } })).toBe(
    'my/mcpbin.config.ts: "json.bigint" must be one of "string", "number", "error"; got "hex"',
  );
  expect(error({ ...base, timeoutms: 5 })).toStartWith(
    'my/mcpbin.config.ts: "timeoutms" is not a known key (did you mean "timeoutMs"? allowed: name, version,',
  );
  expect(error([base])).toContain("the default export must be a config object");
});

test("config files: not found, no default export, failing import", async () => {
  const dir = writeProject({
    "none/mcpbin.config.ts": `export const config = {};`,
    "throws/mcpbin.config.ts": `throw new Error("boom at load");`,
    "bad/mcpbin.config.ts": `import { defineConfig } from "mcpbin";\nexport default defineConfig({ name: "", version: "1", tools: ["t"] } as any);`,
  });
  const msg = (p: string) =>
    loadConfig(join(dir, p)).then(
      () => "loaded",
      (e: Error) => e.message,
    );
  expect(await msg("missing/mcpbin.config.ts")).toMatch(
    /mcpbin\.config\.ts: config file not found \(create one with: mcpbin init\)$/,
  );
  expect(await msg("none/mcpbin.config.ts")).toEndWith(
    "none/mcpbin.config.ts: no default export; end the file with: export default defineConfig({ ... })",
  );
  expect(await msg("throws/mcpbin.config.ts")).toEndWith(
    "throws/mcpbin.config.ts: the config file failed to load: boom at load",
  );
  expect(await msg("bad/mcpbin.config.ts")).toEndWith(
    'bad/mcpbin.config.ts: "name" must be a non-empty string (the server name sent as serverInfo.name); got ""',
  );
});

test("nested keys (json, http): each mistake names the file, the dotted key and what is expected, never the whole object", () => {
  const F = "my/mcpbin.config.ts";
  const HTTP_KEYS = Object.keys(HTTP_OPTION_KEYS).join(", ");
  // json: the values the README documents and serve() accepts.
  expect(error({ ...base, json: { nonFinite: "zero" } })).toBe(
    `${F}: "json.nonFinite" must be one of "null", "string", "error"; got "zero"`,
  );
  expect(error({ ...base, json: { bigint: 1 } })).toBe(
    `${F}: "json.bigint" must be one of "string", "number", "error"; got 1`,
  );
  expect(error({ ...base, json: { foo: 1 } })).toBe(`${F}: "json.foo" is not a known key (allowed: nonFinite, bigint)`);
  expect(error({ ...base, json: ["null"] })).toBe(
    `${F}: "json" must be an object { nonFinite?, bigint? } (payload JSON; see docs/tools.md); got an array`,
  );
  // http: the bad key and its expectation.
  expect(error({ ...base, http: { port: "abc" } })).toBe(
    `${F}: "http.port" must be an integer 0-65535 (0 picks a free port); got "abc"`,
  );
  expect(error({ ...base, http: { port: 99999 } })).toBe(
    `${F}: "http.port" must be an integer 0-65535 (0 picks a free port); got 99999`,
  );
  expect(error({ ...base, http: { prot: 1 } })).toBe(
    `${F}: "http.prot" is not a known key (did you mean "port"? allowed: ${HTTP_KEYS})`,
  );
  expect(error({ ...base, http: { allowedOrigins: "x" } })).toStartWith(
    `${F}: "http.allowedOrigins" must be an array of origins`,
  );
  expect(error({ ...base, http: { allowedOrigins: "x" } })).toEndWith(`; got "x"`);
  expect(error({ ...base, http: { allowedHosts: ["a", 2] } })).toStartWith(
    `${F}: "http.allowedHosts[1]" must be an array of host names`,
  );
  expect(error({ ...base, http: { path: "/healthz" } })).toBe(
    `${F}: "http.path" must be a path starting with "/" other than "/healthz" (e.g. "/mcp"); got "/healthz"`,
  );
  expect(error({ ...base, http: { requestTimeoutMs: 1.5 } })).toBe(
    `${F}: "http.requestTimeoutMs" must be an integer number of milliseconds from 0 (no limit) to 2147483647; got 1.5`,
  );
  expect(error({ ...base, http: { accessLog: "no" } })).toBe(`${F}: "http.accessLog" must be true or false; got "no"`);
  expect(error({ ...base, http: "yes" })).toBe(
    `${F}: "http" must be true, or an object { ${HTTP_KEYS.split(", ")
      .map((k) => `${k}?`)
      .join(", ")} } (Streamable HTTP; see docs/http.md); got "yes"`,
  );
  // Valid nested values pass.
  for (const http of [
    true,
    false,
    { port: 0 },
    { port: 65535, host: "0.0.0.0", path: "/x", allowedOrigins: ["*"], requestTimeoutMs: 0, accessLog: false },
  ]) {
    expect(checkConfig({ ...base, http, json: { nonFinite: "string", bigint: "error" } }, F)).toBeDefined();
  }
});

test("one rule per option (src/shared/server-keys.ts): serve(), the config file and the HTTP options refuse the same values, timer limits included", async () => {
  const { Registry } = await import("../../src/server/registry.ts");
  const { resolveHttp } = await import("../../src/transport/http-options.ts");
  const over = 2_147_483_648; // one past the longest timer delay: a timer would fire at once
  expect(error({ ...base, timeoutMs: over })).toBe(
    `my/mcpbin.config.ts: "timeoutMs" must be a number of milliseconds from 0 (no limit) to 2147483647; got ${over}`,
  );
  expect(() => new Registry({ name: "s", version: "1", tools: [], timeoutMs: over })).toThrow(
    `serve(): "timeoutMs" must be a number of milliseconds from 0 (no limit) to 2147483647; got ${over}`,
  );
  expect(error({ ...base, http: { sessionIdleMs: over } })).toContain(
    '"http.sessionIdleMs" must be an integer number of milliseconds from 0 (never) to 2147483647',
  );
  expect(() => resolveHttp([], { port: 1, sessionIdleMs: over }, {})).toThrow(
    `http.sessionIdleMs must be an integer number of milliseconds from 0 (never) to 2147483647; got ${over}`,
  );
  expect(() => resolveHttp([], { port: 1, requestTimeoutMs: -1 }, {})).toThrow(
    "http.requestTimeoutMs must be an integer number of milliseconds from 0 (no limit) to 2147483647; got -1",
  );
  // What is within the limits passes everywhere.
  expect(() => checkConfig({ ...base, timeoutMs: 2_147_483_647, http: { sessionIdleMs: 0 } }, "c.ts")).not.toThrow();
  expect(new Registry({ name: "s", version: "1", tools: [], timeoutMs: 2_147_483_647 }).options.timeoutMs).toBe(
    2_147_483_647,
  );
});
