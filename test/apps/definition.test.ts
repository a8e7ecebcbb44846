// app() and a tool's ui option: each author mistake fails at definition, or at build in the check run,
// with one line that says what to change; a view is bundled by Bun into one self-contained document.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { app, AppDefinitionError, tool } from "../../src/index.ts";
import { bundleView, externalReference, withRuntime } from "../../src/apps/view.ts";
import { appHtml } from "../../src/apps/html.ts";
import { ROOT } from "../helpers/proc.ts";
import { mcpbin, oneLineError } from "../cli/run-cli.ts";

const base = { uri: "ui://t/view", name: "View", html: "<!doctype html><html><body>hi</body></html>" };
const fails = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(AppDefinitionError);
    const m = (e as Error).message;
    expect(m.split("\n")).toHaveLength(1);
    return m;
  }
  throw new Error("expected an AppDefinitionError");
};

describe("app() checks its definition", () => {
  test("a URI without ui://", () => {
    expect(fails(() => app({ ...base, uri: "https://x/view" }))).toContain('"uri" must start with ui://');
  });
  test("neither or both of view and html", () => {
    expect(fails(() => app({ uri: "ui://t/a", name: "a" }))).toContain('exactly one of "view"');
    expect(fails(() => app({ ...base, view: "./x.html" }))).toContain('exactly one of "view"');
  });
  test("CSP entries are origins, with a wildcard only as a subdomain", () => {
    for (const bad of [
      "https://api.example.com/v1",
      "*.example.com",
      "https://a.*.example.com",
      "https://*",
      "example.com",
      "https://*example.com",
    ]) {
      expect(fails(() => app({ ...base, csp: { connectDomains: [bad] } }))).toContain("is not an origin");
    }
    const ok = app({
      ...base,
      csp: {
        connectDomains: ["https://api.example.com", "wss://*.example.com", "http://localhost:8080"],
        resourceDomains: [],
      },
    });
    expect(ok.uiMeta).toEqual({
      csp: {
        connectDomains: ["https://api.example.com", "wss://*.example.com", "http://localhost:8080"],
        resourceDomains: [],
      },
    });
    expect(fails(() => app({ ...base, csp: { scriptDomains: [] } as never }))).toContain(
      'unknown csp key "scriptDomains"',
    );
  });
  test("permissions are the four known ones, each {}", () => {
    expect(fails(() => app({ ...base, permissions: { usb: {} } as never }))).toContain('unknown permission "usb"');
    expect(fails(() => app({ ...base, permissions: { camera: true } as never }))).toContain("must be an empty object");
    expect(
      app({ ...base, permissions: { clipboardWrite: {} }, prefersBorder: true, domain: "x.example" }).uiMeta,
    ).toEqual({ permissions: { clipboardWrite: {} }, domain: "x.example", prefersBorder: true });
  });
  test("unknown options", () => {
    expect(fails(() => app({ ...base, mimeType: "text/html" } as never))).toContain(
      '"mimeType" is not a known key (allowed: uri, name',
    );
  });
  test("a relative view is resolved against the module that calls app()", () => {
    expect(app({ uri: "ui://t/r", name: "r", view: "./views/x.html" }).view).toBe(
      resolve(import.meta.dir, "views/x.html"),
    );
  });
  test("a tool's ui visibility takes only model and app", () => {
    const a = app(base);
    const run = () => "x";
    expect(
      fails(() => tool({ name: "t", description: "d", ui: { app: a, visibility: ["agent"] as never }, run })),
    ).toContain('unknown ui.visibility value "agent"');
    expect(fails(() => tool({ name: "t", description: "d", ui: { app: a, visibility: [] }, run }))).toContain(
      "non-empty array",
    );
    expect(fails(() => tool({ name: "t", description: "d", ui: { app: "https://x" }, run }))).toContain(
      "ui.app must be an app() or a ui:// URI",
    );
    expect(tool({ name: "t", description: "d", ui: a, run }).ui).toEqual({
      resourceUri: "ui://t/view",
      visibility: ["model", "app"],
      app: a,
    });
    expect(tool({ name: "t", description: "d", ui: { app: a, visibility: ["app"] }, run }).ui?.visibility).toEqual([
      "app",
    ]);
  });
});

describe("the view bundle", () => {
  test("the example dashboard: TypeScript, CSS and the ext-apps App inlined into one document", async () => {
    const a = app({
      uri: "ui://weather/dashboard",
      name: "d",
      view: resolve(ROOT, "examples/weather-app/views/dashboard.html"),
    });
    const { html, inputs } = await bundleView(a);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<script[^>]*\ssrc=/i);
    expect(html).not.toMatch(/<link[^>]*stylesheet/i);
    expect(html).toContain("<style>");
    expect(html).toContain("ui/initialize"); // the App class's handshake, bundled from npm
    expect(externalReference(html)).toBeUndefined();
    expect([...inputs.keys()].some((p) => p.endsWith("dashboard.ts"))).toBe(true);
    expect((await bundleView(a)).html).toBe(html); // deterministic: what the build embeds is what the test expects
  });
  test("a no-script view gets the runtime; a document without data-mcp-* does not", async () => {
    const a = app({
      uri: "ui://weather/quick",
      name: "q",
      view: resolve(ROOT, "examples/weather-app/views/quick.html"),
    });
    const { html } = await bundleView(a);
    expect(html).toContain("data-mcpbin-runtime");
    expect(html).toContain("ui/update-model-context");
    expect(html).not.toContain("</script></script>");
    expect(await withRuntime(base.html)).toBe(base.html);
  });
  test("from source (mcpbin dev), the view is bundled again when one of its files changes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpbin-view-"));
    try {
      writeFileSync(
        join(dir, "v.html"),
        '<!doctype html><html><body><p id="p"></p><script type="module" src="./v.ts"></script></body></html>',
      );
      writeFileSync(join(dir, "v.ts"), 'document.getElementById("p")!.textContent = "first";\n');
      const a = app({ uri: "ui://t/dev", name: "dev", view: join(dir, "v.html") });
      const first = await appHtml(a);
      expect(first).toContain('"first"');
      expect(await appHtml(a)).toBe(first); // unchanged files: the bundle is kept
      writeFileSync(join(dir, "v.ts"), 'document.getElementById("p")!.textContent = "second";\n');
      const { utimesSync } = await import("node:fs");
      utimesSync(join(dir, "v.ts"), new Date(), new Date(Date.now() + 5_000)); // a later mtime, whatever the file system's resolution
      const second = await appHtml(a);
      expect(second).toContain('"second"');
      expect(second).not.toContain('"first"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  test("external references are found unless their origin is declared", () => {
    const doc =
      '<html><head><script src="https://cdn.example.com/x.js"></script></head><body><a href="https://example.com">a link is fine</a></body></html>';
    expect(externalReference(doc)).toBe('script src="https://cdn.example.com/x.js"');
    expect(externalReference(doc, ["https://*.example.com"])).toBeUndefined();
    expect(externalReference('<img src="./logo.png">')).toBe('img src="./logo.png"');
    expect(externalReference('<img src="data:image/png;base64,AA==">')).toBeUndefined();
  });
});

describe("mcpbin build refuses, in one line", () => {
  let dir: string;
  const index = JSON.stringify(resolve(ROOT, "src/index.ts"));
  const script = (name: string, body: string) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, `import { app, tool, serve } from ${index};\nconst run = () => "ok";\n${body}\n`);
    return file;
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "mcpbin-apps-"));
    mkdirSync(join(dir, "views"));
    writeFileSync(join(dir, "views/ok.html"), "<!doctype html><html><body>ok</body></html>");
    writeFileSync(
      join(dir, "views/broken.html"),
      '<!doctype html><html><body><script type="module" src="./broken.ts"></script></body></html>',
    );
    writeFileSync(join(dir, "views/broken.ts"), "import { nothing } from './not-there.ts';\nconsole.log(nothing);\n");
    writeFileSync(
      join(dir, "views/cdn.html"),
      '<!doctype html><html><head><script src="https://cdn.example.com/lib.js"></script></head><body></body></html>',
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cases: [string, string, string][] = [
    [
      "a URI without ui://",
      `const a = app({ uri: "http://x/v", name: "v", view: "./views/ok.html" });\nawait serve({ name: "s", version: "1", tools: [tool({ name: "t", description: "d", ui: a, run })] });`,
      '"uri" must start with ui://',
    ],
    [
      "two apps with one URI",
      `const a = app({ uri: "ui://s/v", name: "a", view: "./views/ok.html" });\nconst b = app({ uri: "ui://s/v", name: "b", html: "<!doctype html><p>b</p>" });\nawait serve({ name: "s", version: "1", tools: [tool({ name: "t", description: "d", ui: a, run })], apps: [b] });`,
      'two apps have the URI "ui://s/v"',
    ],
    [
      "a tool pointing at an app that is not served",
      `await serve({ name: "s", version: "1", tools: [tool({ name: "t", description: "d", ui: { app: "ui://s/missing" }, run })] });`,
      'tool "t" links to "ui://s/missing", which no served app has',
    ],
    [
      "an unknown visibility value",
      `const a = app({ uri: "ui://s/v", name: "v", view: "./views/ok.html" });\nawait serve({ name: "s", version: "1", tools: [tool({ name: "t", description: "d", ui: { app: a, visibility: ["user"] }, run } as never)] });`,
      'unknown ui.visibility value "user"',
    ],
    [
      "a CSP entry that is not an origin",
      `const a = app({ uri: "ui://s/v", name: "v", view: "./views/ok.html", csp: { connectDomains: ["api.example.com/v1"] } });\nawait serve({ name: "s", version: "1", tools: [tool({ name: "t", description: "d", ui: a, run })] });`,
      'csp.connectDomains entry "api.example.com/v1" is not an origin',
    ],
    [
      "a missing view file",
      `const a = app({ uri: "ui://s/v", name: "v", view: "./views/gone.html" });\nawait serve({ name: "s", version: "1", tools: [tool({ name: "t", description: "d", ui: a, run })] });`,
      'app "ui://s/v": view file not found',
    ],
    [
      "a view whose bundle fails",
      `const a = app({ uri: "ui://s/v", name: "v", view: "./views/broken.html" });\nawait serve({ name: "s", version: "1", tools: [tool({ name: "t", description: "d", ui: a, run })] });`,
      'app "ui://s/v": bundling',
    ],
    [
      "a view that still loads from an undeclared origin",
      `const a = app({ uri: "ui://s/v", name: "v", view: "./views/cdn.html" });\nawait serve({ name: "s", version: "1", tools: [tool({ name: "t", description: "d", ui: a, run })] });`,
      'still loads script src="https://cdn.example.com/lib.js"',
    ],
  ];
  for (const [what, body, message] of cases) {
    test(what, async () => {
      const file = script(what.replace(/\W+/g, "-"), body);
      const r = await mcpbin(["build", file, "--outfile", join(dir, "out")], dir);
      const line = oneLineError(r);
      expect(line).toContain(message);
    });
  }
});
