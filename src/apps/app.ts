/** @module app(): an MCP App's definition (a `ui://` resource holding one HTML view), its checks and its `_meta.ui`. */
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { unknownKey } from "../shared/option-keys.ts";

/** The MIME type of every MCP App resource (extension io.modelcontextprotocol/ui, 2026-01-26): exact, no variants. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** The extension's identifier in `capabilities.extensions` (client and server). */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";

/** The four CSP origin lists of `_meta.ui.csp` (MCP Apps 2026-01-26, UI resource metadata). */
export interface AppCsp {
  /** Origins the view may fetch/XHR/WebSocket to (CSP connect-src). */
  readonly connectDomains?: readonly string[];
  /** Origins the view may load scripts, styles, images, fonts and media from. */
  readonly resourceDomains?: readonly string[];
  /** Origins the view may embed in frames (CSP frame-src). */
  readonly frameDomains?: readonly string[];
  /** Origins allowed as the document's base URI (CSP base-uri). */
  readonly baseUriDomains?: readonly string[];
}

/** Browser permissions the view asks the host for; each is an empty object when asked. */
export interface AppPermissions {
  readonly camera?: Record<string, never>;
  readonly microphone?: Record<string, never>;
  readonly geolocation?: Record<string, never>;
  readonly clipboardWrite?: Record<string, never>;
}

/** What `app()` takes. Give `view` (an HTML file bundled at build) or `html` (a whole document). */
export interface AppDefinition {
  /** The resource URI; must start with `ui://`, e.g. `ui://weather/dashboard`. */
  readonly uri: string;
  /** The resource's name in `resources/list`. */
  readonly name: string;
  /** Display name (2025-06-18+). */
  readonly title?: string;
  readonly description?: string;
  /**
   * An HTML entry (relative paths are resolved against the module that calls `app()`), whose scripts
   * (TypeScript, npm imports) and styles Bun bundles into one self-contained document; `mcpbin build`
   * embeds the result in the executable.
   */
  readonly view?: string;
  /** A complete HTML document, served as given (plus the no-script runtime when it uses `data-mcp-*`). */
  readonly html?: string;
  /** Origins the view may reach; omitted = the host's restrictive default (no connect-src). */
  readonly csp?: AppCsp;
  readonly permissions?: AppPermissions;
  /** A dedicated origin for the view's sandbox (host-specific format). */
  readonly domain?: string;
  /** Whether the host should draw a border around the view. */
  readonly prefersBorder?: boolean;
}

/** The `_meta.ui` object of the resource, identical on its `resources/list` entry and on the read's content item. */
export interface AppUiMeta {
  readonly csp?: AppCsp;
  readonly permissions?: AppPermissions;
  readonly domain?: string;
  readonly prefersBorder?: boolean;
}

/** An MCP App made by `app()`: pass it to a tool's `ui` option, or to `serve({ apps })`. */
export interface App {
  readonly kind: "mcpbin.app";
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The view's absolute path, when defined with `view`. */
  readonly view?: string;
  readonly html?: string;
  /** The resource's `_meta.ui` (frozen); undefined when the definition has none of its fields. */
  readonly uiMeta?: AppUiMeta;
}

/** A mistake in an app's definition; `message` is one line that says what to change. */
export class AppDefinitionError extends Error {
  override readonly name = "AppDefinitionError";
  constructor(message: string) {
    super(message);
  }
}

const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const PERMISSION_KEYS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;
/** Every key `app()` takes; any other is refused at definition (the compiler checks none is missing). */
export const APP_KEYS = [
  "uri",
  "name",
  "title",
  "description",
  "view",
  "html",
  "csp",
  "permissions",
  "domain",
  "prefersBorder",
] as const satisfies readonly (keyof AppDefinition)[];
const APP_KEYS_COMPLETE: [Exclude<keyof AppDefinition, (typeof APP_KEYS)[number]>] extends [never] ? true : never =
  true;
void APP_KEYS_COMPLETE;

/**
 * An origin as a CSP source (`https://api.example.com`, `https://*.example.com`, `wss://x.io:8443`):
 * scheme, host and optional port, no path, query or fragment; a wildcard only as the leftmost label.
 */
const ORIGIN =
  /^[a-z][a-z0-9+.-]*:\/\/(\*\.)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i;

/**
 * Whether `s` is a CSP entry the extension accepts: an origin, with `*` only as a whole subdomain label.
 * @param s - e.g. `https://*.example.com`.
 */
export function isCspOrigin(s: string): boolean {
  return ORIGIN.test(s);
}

/**
 * Defines an MCP App: a `ui://` resource with one HTML view that hosts render in a sandboxed iframe
 * (MCP Apps extension `io.modelcontextprotocol/ui`, spec 2026-01-26). A tool links to it with its
 * `ui` option; the server then lists it in `resources/list`, reads it as `text/html;profile=mcp-app`,
 * and declares the extension.
 * @param def - see {@link AppDefinition}.
 * @returns a frozen {@link App}.
 * @throws AppDefinitionError (one line) on a URI without `ui://`, neither or both of `view` and `html`,
 *   a CSP entry that is not an origin, an unknown permission, or an unknown key.
 */
export function app(def: AppDefinition): App {
  if (typeof def !== "object" || def === null)
    throw new AppDefinitionError("app() takes an object: app({ uri, name, view | html })");
  const where = typeof def.uri === "string" ? `app "${def.uri}"` : "app()";
  const unknown = unknownKey(def, APP_KEYS);
  if (unknown) throw new AppDefinitionError(`${where}: ${unknown}`);
  if (typeof def.uri !== "string" || !/^ui:\/\/[^\s]+$/.test(def.uri)) {
    throw new AppDefinitionError(
      `${where}: "uri" must start with ui:// (e.g. "ui://my-server/view"); got ${JSON.stringify(def.uri)}`,
    );
  }
  if (typeof def.name !== "string" || def.name === "")
    throw new AppDefinitionError(`${where}: "name" must be a non-empty string`);
  for (const k of ["title", "description", "domain"] as const) {
    if (def[k] !== undefined && typeof def[k] !== "string")
      throw new AppDefinitionError(`${where}: "${k}" must be a string`);
  }
  if (def.prefersBorder !== undefined && typeof def.prefersBorder !== "boolean")
    throw new AppDefinitionError(`${where}: "prefersBorder" must be true or false`);
  if ((def.view === undefined) === (def.html === undefined)) {
    throw new AppDefinitionError(
      `${where}: give exactly one of "view" (an HTML file to bundle) and "html" (a whole document)`,
    );
  }
  if (def.view !== undefined && (typeof def.view !== "string" || def.view === ""))
    throw new AppDefinitionError(`${where}: "view" must be a path to an HTML file`);
  if (def.html !== undefined && typeof def.html !== "string")
    throw new AppDefinitionError(`${where}: "html" must be a string holding an HTML document`);
  const csp = checkCsp(where, def.csp);
  const permissions = checkPermissions(where, def.permissions);
  const meta: Record<string, unknown> = {};
  if (csp) meta.csp = csp;
  if (permissions) meta.permissions = permissions;
  if (def.domain !== undefined) meta.domain = def.domain;
  if (def.prefersBorder !== undefined) meta.prefersBorder = def.prefersBorder;
  const a: Record<string, unknown> = { kind: "mcpbin.app", uri: def.uri, name: def.name };
  if (def.title !== undefined) a.title = def.title;
  if (def.description !== undefined) a.description = def.description;
  if (def.view !== undefined) a.view = isAbsolute(def.view) ? def.view : resolve(callerDir(), def.view);
  if (def.html !== undefined) a.html = def.html;
  if (Object.keys(meta).length > 0) a.uiMeta = Object.freeze(meta);
  return Object.freeze(a) as unknown as App;
}

/** Whether `x` was made by {@link app}. */
export function isApp(x: unknown): x is App {
  return typeof x === "object" && x !== null && (x as { kind?: unknown }).kind === "mcpbin.app";
}

function checkCsp(where: string, csp: AppCsp | undefined): AppCsp | undefined {
  if (csp === undefined) return undefined;
  if (typeof csp !== "object" || csp === null || Array.isArray(csp))
    throw new AppDefinitionError(`${where}: "csp" must be an object of origin lists (${CSP_KEYS.join(", ")})`);
  const out: Record<string, readonly string[]> = {};
  for (const [k, list] of Object.entries(csp)) {
    if (!(CSP_KEYS as readonly string[]).includes(k))
      throw new AppDefinitionError(`${where}: unknown csp key "${k}"; expected ${CSP_KEYS.join(", ")}`);
    if (!Array.isArray(list)) throw new AppDefinitionError(`${where}: csp.${k} must be an array of origins`);
    for (const entry of list) {
      if (typeof entry !== "string" || !isCspOrigin(entry)) {
        throw new AppDefinitionError(
          `${where}: csp.${k} entry ${JSON.stringify(entry)} is not an origin; write scheme://host[:port] (a wildcard only as a subdomain: https://*.example.com)`,
        );
      }
    }
    out[k] = Object.freeze([...list]);
  }
  return Object.freeze(out);
}

function checkPermissions(where: string, p: AppPermissions | undefined): AppPermissions | undefined {
  if (p === undefined) return undefined;
  if (typeof p !== "object" || p === null || Array.isArray(p))
    throw new AppDefinitionError(`${where}: "permissions" must be an object such as { clipboardWrite: {} }`);
  const out: Record<string, Record<string, never>> = {};
  for (const [k, value] of Object.entries(p)) {
    if (!(PERMISSION_KEYS as readonly string[]).includes(k))
      throw new AppDefinitionError(`${where}: unknown permission "${k}"; expected ${PERMISSION_KEYS.join(", ")}`);
    if (typeof value !== "object" || value === null || Array.isArray(value) || Object.keys(value).length > 0) {
      throw new AppDefinitionError(`${where}: permission "${k}" must be an empty object ({}) to ask for it`);
    }
    out[k] = Object.freeze({});
  }
  return Object.freeze(out);
}

/** The directory of the module that called `app()`, from the call stack (V8 call sites). */
function callerDir(): string {
  const prepare = Error.prepareStackTrace;
  let files: (string | undefined)[] = [];
  try {
    Error.prepareStackTrace = (_e, sites: NodeJS.CallSite[]) => sites.map((s) => s.getFileName() ?? undefined);
    const holder: { stack?: unknown } = {};
    Error.captureStackTrace(holder, app);
    files = (holder.stack as (string | undefined)[] | undefined) ?? [];
  } finally {
    Error.prepareStackTrace = prepare;
  }
  const file = files.find((f) => f !== undefined && f !== "" && !f.startsWith("node:"));
  if (file === undefined) return process.cwd();
  return dirname(file.startsWith("file:") ? fileURLToPath(file) : file);
}

declare module "../shared/server-options.ts" {
  /** The key of the server options that holds its own apps (src/shared/server-options.ts). */
  interface ServerOptions {
    /** MCP Apps served besides those the tools link to with their `ui` option (src/apps/app.ts). */
    readonly apps?: readonly App[];
  }
}
