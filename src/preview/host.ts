/**
 * @module `mcpbin preview`: a local MCP Apps host. Launches the server as a child over stdio, connects the
 * official MCP client to it (declaring the extension io.modelcontextprotocol/ui), and serves on 127.0.0.1 a page
 * that renders each app in a sandboxed iframe through the official host-side bridge (`AppBridge`, src/preview/page.ts).
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { resolve } from "node:path";
import { APP_MIME_TYPE, UI_EXTENSION } from "../apps/app.ts";
import pkg from "../../package.json" with { type: "json" };

/** What {@link startPreview} takes. */
export interface PreviewOptions {
  /** The server to preview: a script ending with `serve()`, or a config file. */
  readonly source: { readonly kind: "script" | "config"; readonly path: string };
  /** TCP port on 127.0.0.1; 0 (default) = any free one. */
  readonly port?: number;
  /** Where the server's stderr goes; default this process's stderr. */
  readonly stderr?: "inherit" | "ignore";
}

/** A running preview. */
export interface Preview {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** Stops the page server and the child server. */
  stop(): Promise<void>;
}

/** One app as the page sees it: the resource, its document, and the tools that render in it. */
export interface PreviewApp {
  readonly uri: string;
  readonly name: string;
  readonly html: string;
  readonly mimeType?: string;
  readonly meta?: Record<string, unknown>;
  readonly tools: readonly {
    readonly name: string;
    readonly description?: string;
    readonly inputSchema?: unknown;
    readonly visibility: readonly string[];
  }[];
}

const MCPBIN = resolve(import.meta.dir, "../../bin/mcpbin.ts");
let pageScript: Promise<string> | undefined;

/** The page's script (src/preview/page.ts with AppBridge and its dependencies) bundled for the browser, once per process. */
function bundledPage(): Promise<string> {
  pageScript ??= (async () => {
    const r = await Bun.build({
      entrypoints: [resolve(import.meta.dir, "page.ts")],
      target: "browser",
      format: "esm",
      minify: true,
      throw: false,
    });
    const out = r.outputs.find((o) => o.kind === "entry-point");
    if (!r.success || !out) throw new Error(`bundling the preview page failed: ${String(r.logs[0] ?? "no output")}`);
    return (await out.text()).replace(/<\/(script)/gi, "<\\/$1");
  })();
  return pageScript;
}

/**
 * Starts the preview host: the server from source (`mcpbin dev` as a child, over stdio), the MCP client,
 * and the page server on 127.0.0.1.
 * @param o - see {@link PreviewOptions}.
 * @returns the page's URL and a stop function.
 * @throws Error when the server does not start or the port is taken.
 */
export async function startPreview(o: PreviewOptions): Promise<Preview> {
  const args = [
    MCPBIN,
    "dev",
    ...(o.source.kind === "config" ? ["--config", o.source.path] : [o.source.path]),
    "--stdio",
  ];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    stderr: o.stderr ?? "inherit",
    env: { ...process.env } as Record<string, string>,
  });
  const client = new Client(
    { name: "mcpbin-preview", version: pkg.version },
    { capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } } as never },
  );
  await client.connect(transport);
  const script = await bundledPage();
  let server: ReturnType<typeof Bun.serve>;
  const json = (value: unknown, status = 200) =>
    new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
  try {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: o.port ?? 0,
      fetch: async (req) => {
        const url = new URL(req.url);
        // Only pages served from here may drive the server (no DNS rebinding, no other site's form).
        const host = req.headers.get("host") ?? "";
        if (host !== `127.0.0.1:${server.port}` && host !== `localhost:${server.port}`)
          return new Response("forbidden host", { status: 403 });
        if (req.method === "POST" && req.headers.get("origin") !== `http://${host}`)
          return new Response("forbidden origin", { status: 403 });
        try {
          if (req.method === "GET" && url.pathname === "/")
            return new Response(pageHtml(script), { headers: { "content-type": "text/html;charset=utf-8" } });
          if (req.method === "GET" && url.pathname === "/api/apps") return json(await listApps(client));
          if (req.method === "POST" && url.pathname === "/api/call") {
            const { name, arguments: a } = (await req.json()) as { name: string; arguments?: Record<string, unknown> };
            return json(await client.callTool({ name, arguments: a ?? {} }));
          }
          if (req.method === "POST" && url.pathname === "/api/read") {
            const { uri } = (await req.json()) as { uri: string };
            return json(await client.readResource({ uri }));
          }
          return new Response("not found", { status: 404 });
        } catch (e) {
          return json({ error: String((e as Error)?.message ?? e) }, 500);
        }
      },
    });
  } catch (e) {
    await client.close();
    throw e;
  }
  return {
    url: `http://127.0.0.1:${server.port}/`,
    stop: async () => {
      await server.stop(true);
      await client.close();
    },
  };
}

/**
 * The server's apps: every `ui://` resource of `resources/list` with the MCP App MIME type, and every URI a
 * tool's `_meta.ui.resourceUri` names, each read once, with the tools that link to it.
 */
export async function listApps(client: Client): Promise<PreviewApp[]> {
  const tools = (await client.listTools()).tools;
  const uris = new Map<string, { name: string }>();
  if (client.getServerCapabilities()?.resources) {
    for (const r of (await client.listResources()).resources)
      if (r.uri.startsWith("ui://") && r.mimeType === APP_MIME_TYPE) uris.set(r.uri, { name: r.name });
  }
  const linked = (t: (typeof tools)[number]) =>
    (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri ??
    (t._meta?.["ui/resourceUri"] as string | undefined);
  for (const t of tools) {
    const uri = linked(t);
    if (uri && !uris.has(uri)) uris.set(uri, { name: uri });
  }
  const apps: PreviewApp[] = [];
  for (const [uri, { name }] of uris) {
    const read = await client.readResource({ uri });
    const item = read.contents[0] as
      { text?: string; blob?: string; mimeType?: string; _meta?: Record<string, unknown> } | undefined;
    const html = item?.text ?? (item?.blob ? Buffer.from(item.blob, "base64").toString("utf8") : "");
    apps.push({
      uri,
      name,
      html,
      mimeType: item?.mimeType,
      meta: item?._meta,
      tools: tools
        .filter((t) => linked(t) === uri)
        .map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema,
          visibility: (t._meta?.ui as { visibility?: string[] } | undefined)?.visibility ?? ["model", "app"],
        })),
    });
  }
  return apps;
}

function pageHtml(script: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcpbin preview</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
:root { color-scheme: light; font: 14px/1.4 system-ui, sans-serif; --border: #d0d4da; }
body { margin: 0; background: #f4f5f7; color: #1d2330; }
header { padding: 10px 16px; background: #1d2330; color: #fff; display: flex; gap: 12px; align-items: baseline; }
header h1 { font-size: 16px; margin: 0; } header span { opacity: .7; }
main { padding: 16px; display: grid; gap: 16px; }
.app { background: #fff; border: 1px solid var(--border); border-radius: 8px; padding: 12px; display: grid; grid-template-columns: minmax(320px, 1fr) 360px; gap: 12px; }
.app h2 { grid-column: 1 / -1; margin: 0; font-size: 15px; } .app h2 code { font-weight: normal; color: #5a6372; }
.frame iframe { width: 100%; min-height: 260px; border: 1px solid var(--border); border-radius: 6px; background: #fff; }
.side { display: grid; gap: 8px; align-content: start; }
label { font-weight: 600; font-size: 12px; } select, textarea { width: 100%; box-sizing: border-box; font: 12px ui-monospace, monospace; }
pre { margin: 0; background: #f4f5f7; border-radius: 4px; padding: 6px; font-size: 12px; max-height: 160px; overflow: auto; white-space: pre-wrap; word-break: break-word; }
button { padding: 4px 12px; }
</style></head>
<body><header><h1>mcpbin preview</h1><span id="server"></span></header><main id="apps"><p>Loading apps…</p></main>
<script type="module">${script}</script></body></html>`;
}
