// CORS as a browser enforces it: a page in Debian's chromium (playwright-core) on another loopback origin
// calls an `--http` server with fetch() and can read its refusals (401 with WWW-Authenticate, 413, 404
// for an expired session) as well as its answers (Mcp-Session-Id on initialize), preflights included.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import type { Server } from "bun";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpProcess } from "./helpers.ts";

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const TOKEN = "browser-cors-token";

let mcp: HttpProcess;
let site: Server<undefined>;
let profile: string;
let browser: BrowserContext;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  mcp = await HttpProcess.source("test/http/configured-server.ts", { env: { MCPBIN_HTTP_TOKEN: TOKEN } });
  // The page's own origin: another port on loopback, so every call to the MCP endpoint is cross-origin.
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response("<!doctype html><title>client</title>", { headers: { "content-type": "text/html" } }),
  });
  profile = mkdtempSync(join(tmpdir(), "mcpbin-chromium-"));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${site.port}/`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  void site?.stop(true);
  mcp?.kill();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** What the page reads of one fetch: status, the named headers and the body; or the error fetch threw (a CORS failure). */
async function fromPage(
  url: string,
  init: { headers: Record<string, string>; body: string },
  names: string[],
): Promise<{ status?: number; headers?: Record<string, string | null>; body?: string; error?: string }> {
  return page.evaluate(
    async ({ url, init, names }) => {
      try {
        const r = await fetch(url, { method: "POST", ...init });
        return {
          status: r.status,
          headers: Object.fromEntries(names.map((n) => [n, r.headers.get(n)])),
          body: await r.text(),
        };
      } catch (e) {
        return { error: String(e) };
      }
    },
    { url, init, names },
  );
}

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const init = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } },
});

test("a page reads the 401 and its WWW-Authenticate challenge", async () => {
  const r = await fromPage(mcp.url, { headers: JSON_HEADERS, body: init }, ["www-authenticate"]);
  expect(r.error).toBeUndefined();
  expect(r.status).toBe(401);
  expect(r.headers!["www-authenticate"]).toStartWith("Bearer");
  expect(r.body).toContain("bearer token");
}, 30_000);

test("a page reads Mcp-Session-Id from initialize, then the 404 of an unknown session and a 413", async () => {
  const auth = { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}` };
  const ok = await fromPage(mcp.url, { headers: auth, body: init }, ["mcp-session-id"]);
  expect(ok.status).toBe(200);
  expect(ok.headers!["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);
  const gone = await fromPage(
    mcp.url,
    {
      headers: { ...auth, "mcp-session-id": "00000000-0000-0000-0000-000000000000" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    },
    [],
  );
  expect(gone.status).toBe(404);
  expect(JSON.parse(gone.body!).error.message).toContain("Session not found");
  const big = await fromPage(mcp.url, { headers: auth, body: JSON.stringify({ pad: "x".repeat(4096) }) }, []);
  expect(big.status).toBe(413);
}, 30_000);
