/** @module A tool's link to an MCP App (its `ui` option): the resource URI, who may see the tool, and which apps a server serves. */
import { AppDefinitionError, isApp, UI_EXTENSION, type App } from "./app.ts";

/** Who may use a tool (MCP Apps `_meta.ui.visibility`): the model (the agent), the app's view, or both. */
export type ToolVisibility = "model" | "app";

/** A tool's `ui` option: the app it renders in, or that plus who may see the tool. */
export type ToolUiOption =
  | App
  | {
      /** The app (or the `ui://` URI of an app the server serves through `serve({ apps })`). */
      readonly app: App | string;
      /** Default `["model", "app"]`; `["app"]` = a tool only the view calls, hidden from the model. */
      readonly visibility?: readonly ToolVisibility[];
    };

/** A tool's resolved link, as sent in `_meta.ui`. */
export interface ToolUi {
  readonly resourceUri: string;
  readonly visibility: readonly ToolVisibility[];
  /** The app, when the tool was given the object (not just a URI). */
  readonly app?: App;
}

const VISIBILITY = new Set<string>(["model", "app"]);

/**
 * Checks and resolves a tool's `ui` option.
 * @param toolName - for messages.
 * @param ui - the option as given.
 * @throws AppDefinitionError (one line) on something that is not an app or `{ app, visibility }`, a URI
 *   without `ui://`, or an unknown or empty visibility.
 */
export function resolveToolUi(toolName: string, ui: ToolUiOption): ToolUi {
  const where = `tool "${toolName}"`;
  if (isApp(ui))
    return Object.freeze({
      resourceUri: ui.uri,
      visibility: Object.freeze(["model", "app"] as ToolVisibility[]),
      app: ui,
    });
  if (typeof ui !== "object" || ui === null)
    throw new AppDefinitionError(`${where}: "ui" must be an app() or { app, visibility }`);
  const a = (ui as { app?: unknown }).app;
  if (!isApp(a) && !(typeof a === "string" && a.startsWith("ui://"))) {
    throw new AppDefinitionError(
      `${where}: ui.app must be an app() or a ui:// URI; got ${typeof a === "string" ? JSON.stringify(a) : typeof a}`,
    );
  }
  for (const k of Object.keys(ui))
    if (k !== "app" && k !== "visibility")
      throw new AppDefinitionError(`${where}: unknown ui option "${k}"; expected app, visibility`);
  const vis = ui.visibility ?? ["model", "app"];
  if (!Array.isArray(vis) || vis.length === 0)
    throw new AppDefinitionError(`${where}: ui.visibility must be a non-empty array of "model" and/or "app"`);
  for (const x of vis) {
    if (typeof x !== "string" || !VISIBILITY.has(x))
      throw new AppDefinitionError(
        `${where}: unknown ui.visibility value ${JSON.stringify(x)}; expected "model" and/or "app"`,
      );
  }
  return Object.freeze({
    resourceUri: isApp(a) ? a.uri : a,
    visibility: Object.freeze([...new Set(vis)]),
    ...(isApp(a) ? { app: a } : {}),
  });
}

/** Whether a tool with this link is left out for clients without the extension (it lacks `model`). */
export function isAppOnly(ui: ToolUi | undefined): boolean {
  return ui !== undefined && !ui.visibility.includes("model");
}

/**
 * The apps a server serves: those given to `serve({ apps })`, then those its tools link to, by URI.
 * @param apps - `serve({ apps })`.
 * @param links - each tool's name and resolved link.
 * @returns URI → app, in that order.
 * @throws AppDefinitionError (one line) on two different apps with one URI, something in `apps` that
 *   is not an app, or a tool linking to a URI no served app has.
 */
export function servedApps(
  apps: readonly unknown[] | undefined,
  links: readonly { readonly tool: string; readonly ui: ToolUi }[],
): Map<string, App> {
  const byUri = new Map<string, App>();
  const add = (a: App, who: string) => {
    const had = byUri.get(a.uri);
    if (had && had !== a)
      throw new AppDefinitionError(`two apps have the URI "${a.uri}" (${who}); give each app its own ui:// URI`);
    byUri.set(a.uri, a);
  };
  for (const a of apps ?? []) {
    if (!isApp(a))
      throw new AppDefinitionError(
        `serve(): "apps" must hold apps made by app(); got ${a === null ? "null" : typeof a}`,
      );
    add(a, "in serve({ apps })");
  }
  for (const { tool, ui } of links) if (ui.app) add(ui.app, `tool "${tool}"`);
  for (const { tool, ui } of links) {
    if (!byUri.has(ui.resourceUri))
      throw new AppDefinitionError(
        `tool "${tool}" links to "${ui.resourceUri}", which no served app has; pass that app to the tool's ui option or to serve({ apps })`,
      );
  }
  return byUri;
}

/**
 * {@link servedApps} of a server's options: `apps`, then the apps of its tools (nested arrays flattened).
 * @throws AppDefinitionError as {@link servedApps}.
 */
export function appsOfServer(o: {
  readonly apps?: readonly unknown[];
  readonly tools: readonly unknown[];
}): Map<string, App> {
  const links: { tool: string; ui: ToolUi }[] = [];
  for (const t of o.tools.flat() as { name?: string; ui?: ToolUi }[])
    if (t?.ui) links.push({ tool: String(t.name), ui: t.ui });
  return servedApps(o.apps, links);
}

/**
 * Whether client capabilities declare the MCP Apps extension (`extensions["io.modelcontextprotocol/ui"]`):
 * legacy clients in `initialize`, 2026-07-28 clients in each request's client capabilities.
 * @param capabilities - the client's capabilities object, as received.
 */
export function declaresUi(capabilities: unknown): boolean {
  const ext = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return typeof ext === "object" && ext !== null && typeof ext[UI_EXTENSION] === "object" && ext[UI_EXTENSION] !== null;
}

/**
 * A tool's `_meta` with its app link: `ui.resourceUri` and `ui.visibility` (merged into the author's `ui`, if
 * any), and the deprecated flat `ui/resourceUri` that the ext-apps SDK and shinymcp still write and read.
 * @param ui - the tool's resolved link.
 * @param meta - the author's `_meta`, kept.
 */
export function toolMetaWithUi(ui: ToolUi, meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const own = meta?.ui !== null && typeof meta?.ui === "object" ? (meta.ui as Record<string, unknown>) : {};
  return {
    ...meta,
    ui: { ...own, resourceUri: ui.resourceUri, visibility: [...ui.visibility] },
    "ui/resourceUri": ui.resourceUri,
  };
}
