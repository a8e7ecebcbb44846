// mcpbin openapi as a user runs it: --check on real documents no one here wrote (the Swagger Petstore
// 3.0 and 3.1 from @readme/oas-examples, GitHub's REST description from @octokit/openapi), and one
// compiled executable over the echo API that reads no document at run time.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ROOT } from "../helpers/proc.ts";
import { mcpbin, oneLineError } from "../cli/run-cli.ts";
import { TOOL_NAME } from "../../src/tools/name.ts";
import { startEcho, type Echo } from "./echo-server.ts";
import { validatingStdioClient } from "./validating-stdio.ts";

const EX = resolve(ROOT, "node_modules/@readme/oas-examples");
// Only the one JSON file of @octokit/openapi is read (its index.js would load ~400 MB of documents).
const GITHUB = resolve(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const names = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => l.startsWith("  ") && / (GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS|TRACE) \//.test(l))
    .map((l) => l.trim().split(/\s+/)[0]!);

test("the Swagger Petstore 3.0 (JSON) and 3.1 (YAML) give one tool per operation, the same names, byte-identical across runs", async () => {
  const [a, b, c] = await Promise.all([
    mcpbin(["openapi", `${EX}/3.0/json/petstore.json`, "--check"]),
    mcpbin(["openapi", `${EX}/3.0/json/petstore.json`, "--check"]),
    mcpbin(["openapi", `${EX}/3.1/yaml/petstore.yaml`, "--check"]),
  ]);
  for (const r of [a, b, c]) expect(r.code).toBe(0);
  expect(a.stdout).toBe(b.stdout);
  expect(a.stdout).toStartWith("Swagger Petstore 1.0.0: 20 tools (mode tools), tools/list ");
  expect(names(a.stdout)).toHaveLength(20);
  expect(names(c.stdout)).toEqual(names(a.stdout));
  expect(names(a.stdout).slice(0, 3)).toEqual(["update_pet", "add_pet", "find_pets_by_status"]);
  // Columns: names padded to the longest, methods right-aligned, so every path starts in one column.
  const ops = a.stdout.split("\n").filter((l) => / (GET|PUT|POST|DELETE) \//.test(l));
  expect(new Set(ops.map((l) => l.indexOf(" /"))).size).toBe(1);
  expect(ops[0]).toMatch(/^  update_pet {2,}PUT \/pet$/);
  expect(a.stdout).toContain("api_key (apiKey in header api_key): API_KEY_API_KEY");
  expect(a.stdout).not.toContain("warning:");
});

test("GitHub's REST API: tools mode warns (count and bytes), names valid and stable; dynamic mode lists under 4 KB", async () => {
  const [one, two, dyn] = await Promise.all([
    mcpbin(["openapi", GITHUB, "--check"]),
    mcpbin(["openapi", GITHUB, "--check"]),
    mcpbin(["openapi", GITHUB, "--check", "--mode", "dynamic"]),
  ]);
  expect(one.code).toBe(0);
  expect(one.stdout).toBe(two.stdout);
  const n = names(one.stdout);
  expect(n.length).toBeGreaterThan(900);
  expect(new Set(n).size).toBe(n.length);
  for (const x of n) expect(x).toMatch(TOOL_NAME);
  expect(one.stdout).toContain(`warning: ${n.length} tools is over 128`);
  expect(one.stdout).toMatch(/warning: tools\/list is \d+ bytes \(~\d+ tokens\), over 100 KB/);
  expect(dyn.code).toBe(0);
  const m = /: 3 tools \(mode dynamic\), tools\/list (\d+) bytes/.exec(dyn.stdout);
  expect(m).not.toBeNull();
  expect(Number(m![1])).toBeLessThan(4096);
  expect(dyn.stdout).not.toContain("warning:");
  expect(names(dyn.stdout)).toEqual(n);
});

test("a document that cannot be used is one line on stderr naming the place", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-openapi-bad-"));
  try {
    await Bun.write(join(dir, "bad.yaml"), "openapi: 3.1.0\ninfo:\n  title: t\n   version: 1\n");
    expect(oneLineError(await mcpbin(["openapi", join(dir, "bad.yaml"), "--check"]))).toMatch(
      /^mcpbin: openapi: .*bad\.yaml:\d+:\d+: cannot parse the document: /,
    );
    expect(oneLineError(await mcpbin(["openapi", join(dir, "none.yaml"), "--check"]))).toContain(
      "cannot read the document (ENOENT)",
    );
    expect(oneLineError(await mcpbin(["openapi", `${EX}/3.0/json/petstore.json`, "--mode", "all"]))).toContain(
      "--mode is tools or dynamic",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

let echo: Echo;
let bin: string;
let dir: string;
beforeAll(async () => {
  echo = startEcho();
  // Built from a copy that is gone before the executable runs: the document is embedded.
  dir = mkdtempSync(join(tmpdir(), "mcpbin-openapi-build-"));
  copyFileSync(resolve(ROOT, "test/fixtures/openapi/echo.yaml"), join(dir, "echo.yaml"));
  bin = resolve(ROOT, ".test-build/echo-api");
  const r = await mcpbin([
    "openapi",
    join(dir, "echo.yaml"),
    "--base-url",
    "http://127.0.0.1:9/v1",
    "--outfile",
    bin,
    "--exclude",
    "big",
  ]);
  if (r.code !== 0) throw new Error(r.stderr);
  expect(r.stdout.split("\n")[0]).toBe(bin);
  expect(r.stderr).toContain("mcpbin: 10 tools, tools/list ");
  // The client configuration has a slot for each credential variable the document's security schemes read.
  expect(r.stdout).toContain(`"env":{"API_KEY_KEY":"","BEARER_TOKEN_TOKEN":""}`);
  expect(r.stdout).toContain("-e API_KEY_KEY=VALUE -e BEARER_TOKEN_TOKEN=VALUE");
  rmSync(dir, { recursive: true, force: true });
}, 120_000);
afterAll(() => echo?.stop());

test("the executable from mcpbin openapi serves the API with credentials from the conventional variables", async () => {
  expect(existsSync(join(dir, "echo.yaml"))).toBe(false);
  const { client, checked } = await validatingStdioClient(bin, [], {
    MCPBIN_BASE_URL: echo.url,
    API_KEY_KEY: "conv-key",
    BEARER_TOKEN_TOKEN: "conv-token",
  });
  try {
    expect(client.getServerVersion()).toEqual({ name: "echo-api", version: "1.0.0" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "get_item",
      "replace_item",
      "delete_item",
      "create_folder",
      "put_note",
      "post_batch",
      "login",
      "with_api_key",
      "with_bearer",
      "missing",
    ]);
    const key = (await client.callTool({ name: "with_api_key", arguments: {} })).structuredContent as any;
    expect(key.headers["x-api-key"]).toBe("conv-key");
    const tok = (await client.callTool({ name: "with_bearer", arguments: {} })).structuredContent as any;
    expect(tok.headers.authorization).toBe("Bearer conv-token");
    const item = (await client.callTool({ name: "get_item", arguments: { itemId: "x y", ids: [4, 5] } }))
      .structuredContent as any;
    expect(item).toMatchObject({ method: "GET", path: "/v1/items/x%20y", query: "ids=4,5" });
    expect(checked.responses).toBeGreaterThanOrEqual(5);
  } finally {
    await client.close();
  }
});
