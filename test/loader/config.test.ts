// Config mistakes: every message names the file, the key and what is expected.
import { expect, test, afterAll } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { checkConfig } from "../../src/config/schema.ts";
import { defineConfig } from "../../src/index.ts";
import { writeProject, removeProjects } from "./fixture-project.ts";

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
  const c = defineConfig({ ...base, title: "S", instructions: "i", include: ["a*"], exclude: ["b"], json: { bigint: "number" }, timeoutMs: 0, maxInFlight: 4, maxResultBytes: 1000, maxLineBytes: 1000, shutdownGraceMs: 10 });
  expect(checkConfig(c, "x")).toBe(c);
});

test("each mistake names the file, the key and what is expected", () => {
  expect(error({ version: "1", tools: ["t"] })).toBe('my/mcpbin.config.ts: "name" must be a non-empty string (the server name sent as serverInfo.name); got nothing');
  expect(error({ ...base, version: 1 })).toBe('my/mcpbin.config.ts: "version" must be a non-empty string such as "1.0.0"; got 1');
  expect(error({ ...base, tools: "tools" })).toStartWith('my/mcpbin.config.ts: "tools" must be a non-empty array of paths to tool modules or directories, relative to the config file');
  expect(error({ ...base, tools: [] })).toContain('"tools" must be a non-empty array');
  expect(error({ ...base, tools: ["a", 3] })).toEndWith('"tools[1]" must be a non-empty array of paths to tool modules or directories, relative to the config file (e.g. ["tools"]); got 3');
  expect(error({ ...base, include: "admin_*" })).toBe('my/mcpbin.config.ts: "include" must be an array of tool-name glob patterns (e.g. ["admin_*"]); got "admin_*"');
  expect(error({ ...base, include: [] })).toContain('"include" is empty');
  expect(error({ ...base, timeoutMs: "5s" })).toBe('my/mcpbin.config.ts: "timeoutMs" must be a number of milliseconds ≥ 0 (0 = no limit); got "5s"');
  expect(error({ ...base, maxInFlight: 0.5 })).toBe('my/mcpbin.config.ts: "maxInFlight" must be an integer ≥ 1; got 0.5');
  expect(error({ ...base, json: { bigint: "hex" } })).toContain('"json.bigint" must be an object { nonFinite?');
  expect(error({ ...base, timeoutms: 5 })).toStartWith('my/mcpbin.config.ts: unknown key "timeoutms"; expected one of name, version,');
  expect(error([base])).toContain("the default export must be a config object");
});

test("config files: not found, no default export, failing import", async () => {
  const dir = writeProject({
    "none/mcpbin.config.ts": `export const config = {};`,
    "throws/mcpbin.config.ts": `throw new Error("boom at load");`,
    "bad/mcpbin.config.ts": `import { defineConfig } from "mcpbin";\nexport default defineConfig({ name: "", version: "1", tools: ["t"] } as any);`,
  });
  const msg = (p: string) => loadConfig(join(dir, p)).then(() => "loaded", (e: Error) => e.message);
  expect(await msg("missing/mcpbin.config.ts")).toMatch(/mcpbin\.config\.ts: config file not found \(create one with: mcpbin init\)$/);
  expect(await msg("none/mcpbin.config.ts")).toEndWith("none/mcpbin.config.ts: no default export; end the file with: export default defineConfig({ ... })");
  expect(await msg("throws/mcpbin.config.ts")).toEndWith("throws/mcpbin.config.ts: the config file failed to load: boom at load");
  expect(await msg("bad/mcpbin.config.ts")).toEndWith('bad/mcpbin.config.ts: "name" must be a non-empty string (the server name sent as serverInfo.name); got ""');
});
