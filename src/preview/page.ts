/// <reference lib="dom" />
/**
 * @module The preview page (browser code, bundled by src/preview/host.ts): one card per app with its view in a
 * sandboxed iframe, connected through the official `AppBridge`; the author picks a tool and its arguments, and
 * the page sends the view `ui/initialize`'s answer, then the tool input, then the tool's result, and shows what
 * the view does (tool calls, model context, messages, logs).
 */
import { AppBridge, PostMessageTransport, type McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { PreviewApp } from "./host.ts";

type CallResult = Record<string, unknown> & { content?: unknown[]; isError?: boolean };
const HOST = { name: "mcpbin preview", version: "1" };

async function post<T>(path: string, body: unknown): Promise<T> {
  const r = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const value = (await r.json()) as T & { error?: string };
  if (!r.ok) throw new Error(value.error ?? `HTTP ${r.status}`);
  return value;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

const show = (pre: HTMLElement, value: unknown) => {
  pre.textContent = typeof value === "string" ? value : JSON.stringify(value, null, 2);
};

/** A starting point for a tool's arguments from its input schema: each property with an empty value of its type. */
function sampleArguments(schema: unknown): Record<string, unknown> {
  const props =
    (schema as { properties?: Record<string, { type?: string; default?: unknown }> } | undefined)?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(props))
    out[k] =
      p.default ??
      (p.type === "number" || p.type === "integer"
        ? 0
        : p.type === "boolean"
          ? false
          : p.type === "array"
            ? []
            : p.type === "object"
              ? {}
              : "");
  return out;
}

/** The CSP a host derives from `_meta.ui.csp` (MCP Apps: no connect-src unless declared), as a meta element. */
function withCsp(html: string, csp: Record<string, string[]> | undefined): string {
  const list = (k: string) => (csp?.[k] ?? []).join(" ");
  const res = list("resourceDomains");
  const policy = [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${res}`,
    `style-src 'unsafe-inline' ${res}`,
    `img-src data: blob: ${res}`,
    `font-src data: ${res}`,
    `media-src data: blob: ${res}`,
    `connect-src ${list("connectDomains") || "'none'"}`,
    `frame-src ${list("frameDomains") || "'none'"}`,
    `base-uri ${list("baseUriDomains") || "'none'"}`,
  ].join("; ");
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, "&quot;")}">`;
  const head = /<head[^>]*>/i.exec(html);
  return head
    ? html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length)
    : meta + html;
}

function card(a: PreviewApp, index: number): HTMLElement {
  const frame = el("div", { class: "frame" });
  const tools = el(
    "select",
    { "data-role": "tool" },
    ...a.tools.map((t) =>
      el("option", { value: t.name }, `${t.name}${t.visibility.includes("model") ? "" : " (app only)"}`),
    ),
  );
  const args = el("textarea", { "data-role": "arguments", rows: "4" });
  const pickTool = () => {
    const t = a.tools.find((x) => x.name === tools.value);
    args.value = JSON.stringify(sampleArguments(t?.inputSchema), null, 1);
  };
  tools.addEventListener("change", pickTool);
  pickTool();
  const run = el("button", { "data-role": "run" }, a.tools.length ? "Call tool in view" : "Open view");
  const input = el("pre", { "data-role": "tool-input" }, "–");
  const result = el("pre", { "data-role": "tool-result" }, "–");
  const calls = el("pre", { "data-role": "view-calls" }, "–");
  const context = el("pre", { "data-role": "model-context" }, "–");
  const events = el("pre", { "data-role": "events" }, "");
  const section = el(
    "section",
    { class: "app", "data-app": a.uri, "data-index": String(index) },
    el("h2", {}, a.name, " ", el("code", {}, a.uri)),
    frame,
    el(
      "div",
      { class: "side" },
      el("label", {}, "Tool"),
      tools,
      el("label", {}, "Arguments (JSON)"),
      args,
      run,
      el("label", {}, "Tool input sent to the view"),
      input,
      el("label", {}, "Tool result sent to the view"),
      result,
      el("label", {}, "Tool calls from the view"),
      calls,
      el("label", {}, "Model context from the view"),
      context,
      el("label", {}, "Bridge events"),
      events,
    ),
  );
  const log = (line: string) => {
    events.textContent += `${line}\n`;
    section.setAttribute("data-events", (section.getAttribute("data-events") ?? "") + line.split(" ")[0] + " ");
  };
  let bridge: AppBridge | undefined;
  let runs = 0;
  run.addEventListener("click", async () => {
    // Each run is numbered (data-run), and its state (data-state) reset before anything waits.
    section.setAttribute("data-run", String(++runs));
    section.removeAttribute("data-state");
    section.removeAttribute("data-events");
    await bridge?.close().catch(() => {});
    frame.replaceChildren();
    events.textContent = "";
    const tool = a.tools.length ? tools.value : undefined;
    let toolArgs: Record<string, unknown> = {};
    try {
      toolArgs = JSON.parse(args.value || "{}");
    } catch (e) {
      show(input, `not JSON: ${(e as Error).message}`);
      return;
    }
    const iframe = el("iframe", { sandbox: "allow-scripts allow-forms", title: a.name });
    frame.append(iframe);
    const dark = matchMedia("(prefers-color-scheme: dark)").matches;
    const hostContext: McpUiHostContext = {
      theme: dark ? "dark" : "light",
      displayMode: "inline",
      availableDisplayModes: ["inline"],
      platform: "web",
      locale: navigator.language,
      ...(tool ? { toolInfo: { tool: { name: tool, inputSchema: { type: "object" } } } } : {}),
      styles: {
        variables: {
          "--color-background-primary": dark ? "#1d2330" : "#ffffff",
          "--color-text-primary": dark ? "#f4f5f7" : "#1d2330",
        } as never,
      },
    } as McpUiHostContext;
    const b = new AppBridge(
      null,
      HOST,
      {
        serverTools: {},
        serverResources: {},
        openLinks: {},
        logging: {},
        updateModelContext: { text: {} },
        message: { text: {} },
      },
      { hostContext },
    );
    bridge = b;
    b.oncalltool = async (params) => {
      log(`tools/call ${params.name}`);
      const r = await post<CallResult>("/api/call", params);
      calls.textContent =
        (calls.textContent === "–" ? "" : calls.textContent) +
        `${params.name} ${JSON.stringify(params.arguments ?? {})}\n→ ${JSON.stringify(r.structuredContent ?? r.content)}\n`;
      return r as never;
    };
    b.onreadresource = async (params) => {
      log(`resources/read ${params.uri}`);
      return post("/api/read", params);
    };
    b.onupdatemodelcontext = async (params) => {
      log("ui/update-model-context");
      show(context, params);
      return {};
    };
    b.onmessage = async (params) => {
      log("ui/message");
      show(context, params);
      return {};
    };
    b.onopenlink = async ({ url }) => {
      log(`ui/open-link ${url}`);
      window.open(url, "_blank", "noopener");
      return {};
    };
    b.onloggingmessage = (p) => log(`notifications/message ${JSON.stringify(p.data)}`);
    b.onsizechange = ({ height }) => {
      if (height) iframe.style.height = `${Math.min(Math.max(height, 120), 1200)}px`;
    };
    b.oninitialized = async () => {
      log(`ui/initialize ${JSON.stringify(b.getAppVersion()?.name ?? "")}`);
      if (!tool) {
        section.setAttribute("data-state", "ready");
        return;
      }
      await b.sendToolInput({ arguments: toolArgs });
      show(input, toolArgs);
      log("tool-input");
      let r: CallResult;
      try {
        r = await post<CallResult>("/api/call", { name: tool, arguments: toolArgs });
      } catch (e) {
        r = { isError: true, content: [{ type: "text", text: String((e as Error).message) }] };
      }
      await b.sendToolResult(r as never);
      show(result, r);
      log("tool-result");
      section.setAttribute("data-state", "ready");
    };
    await b.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
    iframe.srcdoc = withCsp(a.html, (a.meta?.ui as { csp?: Record<string, string[]> } | undefined)?.csp);
  });
  return section;
}

const main = document.getElementById("apps")!;
try {
  const apps = (await (await fetch("/api/apps")).json()) as PreviewApp[] | { error: string };
  if (!Array.isArray(apps)) throw new Error(apps.error);
  main.replaceChildren(
    ...(apps.length
      ? apps.map(card)
      : [el("p", {}, "This server serves no app: give a tool a ui option (app()) or pass apps to serve().")]),
  );
  document.body.setAttribute("data-apps", String(apps.length));
  // Each view opens at once, with its first tool and that tool's sample arguments.
  for (const button of main.querySelectorAll<HTMLButtonElement>("[data-role=run]")) button.click();
} catch (e) {
  main.replaceChildren(el("p", { role: "alert" }, `Could not list the apps: ${(e as Error).message}`));
}
