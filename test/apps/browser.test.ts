// MCP Apps in a real browser: `mcpbin preview` on the example app, driven in Debian's chromium by
// playwright-core. The view gets ui/initialize's answer, then the tool input, then the tool result, in that
// order; its button calls the app-only tool through the host and shows the result; the no-script view
// re-calls its tool when an input changes and shares the inputs as model context.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { BUN, ROOT } from "../helpers/proc.ts";

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
const WAIT = { timeout: 30_000 };

let preview: Subprocess<"ignore", "pipe", "pipe">;
let profile: string;
let browser: BrowserContext;
let page: Page;
let url: string;

/** The first stdout line of the preview: its URL (the test waits for it, bounded). */
async function firstLine(p: Subprocess<"ignore", "pipe", "pipe">): Promise<string> {
  const reader = p.stdout.getReader();
  let text = "";
  const timer = setTimeout(() => p.kill(), 30_000);
  try {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`mcpbin preview ended before printing its URL: ${await new Response(p.stderr).text()}`);
      text += new TextDecoder().decode(value);
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  return text.split("\n")[0]!;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  preview = Bun.spawn([BUN, resolve(ROOT, "bin/mcpbin.ts"), "preview", "examples/weather-app/server.ts"], {
    cwd: ROOT,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  url = await firstLine(preview);
  profile = mkdtempSync(join(tmpdir(), "mcpbin-chromium-"));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1200, height: 900 },
  });
  page = await browser.newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  preview?.kill("SIGTERM");
  await preview?.exited;
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test("the preview listens on 127.0.0.1 and lists the example's two apps", async () => {
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  await page.goto(url);
  await page.locator("body[data-apps='2']").waitFor(WAIT);
  expect(await page.locator("section.app").evaluateAll((s) => s.map((e) => e.getAttribute("data-app")))).toEqual([
    "ui://weather/dashboard",
    "ui://weather/quick",
  ]);
  // Another site's page cannot drive the server through the preview.
  const r = await fetch(new URL("/api/call", url), {
    method: "POST",
    headers: { origin: "https://evil.example", "content-type": "application/json" },
    body: "{}",
  });
  expect(r.status).toBe(403);
});

test("the view receives ui/initialize, then the tool input, then the tool result; its button calls the app-only tool", async () => {
  const card = page.locator("section[data-app='ui://weather/dashboard']");
  await card.locator("[data-role=tool]").selectOption("show_weather");
  await card.locator("[data-role=arguments]").fill('{"city": "Lisbon"}');
  await page.locator("section[data-app='ui://weather/dashboard'][data-state=ready]").waitFor(WAIT); // the first run, on load
  const next = Number(await card.getAttribute("data-run")) + 1;
  await card.locator("[data-role=run]").click();
  await page.locator(`section[data-app='ui://weather/dashboard'][data-run='${next}'][data-state=ready]`).waitFor(WAIT);
  const view = card.frameLocator("iframe");
  await view.locator("body[data-events='ui/initialize tool-input tool-result ']").waitFor(WAIT);
  expect(await view.locator("#events li").allTextContents()).toEqual(["ui/initialize", "tool-input", "tool-result"]);
  expect(await view.locator("#city").textContent()).toBe("Lisbon");
  expect(await view.locator("#temp").textContent()).toMatch(/^-?\d+ °C$/);
  // The host's side of the same sequence, through AppBridge.
  expect((await card.getAttribute("data-events"))!.trim().split(" ")).toEqual([
    "ui/initialize",
    "tool-input",
    "tool-result",
  ]);
  expect(JSON.parse((await card.locator("[data-role=tool-result]").textContent())!).structuredContent.city).toBe(
    "Lisbon",
  );

  await view.locator("#forecast").click();
  await view.locator("body[data-forecast=shown]").waitFor(WAIT);
  expect(await view.locator("#days li").count()).toBe(3);
  expect(await card.locator("[data-role=view-calls]").textContent()).toContain('forecast {"city":"Lisbon"}');

  mkdirSync(resolve(ROOT, ".test-results"), { recursive: true });
  const shot =
    process.env.MCPBIN_SCREENSHOT === "1"
      ? resolve(ROOT, "docs/apps-preview.png")
      : resolve(ROOT, ".test-results/apps-preview.png");
  await card.screenshot({ path: shot });
  expect(existsSync(shot)).toBe(true);
});

test("the no-script view calls its tool again when an input changes and shares the inputs as model context", async () => {
  const card = page.locator("section[data-app='ui://weather/quick']");
  await page.locator("section[data-app='ui://weather/quick'][data-state=ready]").waitFor(WAIT);
  const view = card.frameLocator("iframe");
  await view.locator("[data-mcp-input=city]").fill("Oslo");
  await view.locator("[data-mcp-output=city]", { hasText: "Oslo" }).waitFor(WAIT);
  expect(await view.locator("[data-mcp-output=tempC]").textContent()).toMatch(/^-?\d+$/);
  await card.locator("[data-role=model-context]", { hasText: "Oslo" }).waitFor(WAIT);
  expect(JSON.parse((await card.locator("[data-role=model-context]").textContent())!)).toEqual({
    structuredContent: { inputs: { city: "Oslo" } },
  });
  expect(await card.locator("[data-role=view-calls]").textContent()).toContain('temperature {"city":"Oslo"}');
});
