/** @module openapiTools(): an OpenAPI document as ordinary mcpbin tools, one per operation or three dynamic ones. */
import { textContent } from "../shared/content-blocks.ts";
import { toolResult } from "../shared/result.ts";
import { tool } from "../tools/define.ts";
import type { Tool, ToolAnnotations } from "../tools/types.ts";
import { applySecurity, schemesOf, type Applied, type AuthOptions, type Scheme } from "./auth.ts";
import { loadDocument, OpenApiError, type LoadOptions, type OpenApiDocument, type OpenApiSource } from "./document.ts";
import { dynamicTools, type Caller } from "./dynamic.ts";
import { operationsOf, type Operation, type Selection } from "./operations.ts";
import { buildRequest, CredentialSlotError, PathValueError } from "./request.ts";
import { sendFollowing, type RedirectPolicy } from "./redirects.ts";
import { toToolResult } from "./response.ts";
import { unknownKey } from "../shared/option-keys.ts";

/** A fetch function: the global `fetch`, or an app's own handler (`app.fetch`) to call it in-process. */
export type FetchLike = (request: Request) => Response | Promise<Response>;

/** Options of {@link openapiTools}. */
export interface OpenApiToolsOptions extends Selection, LoadOptions {
  /**
   * The API's base URL, e.g. `https://petstore.example.com/v1`; default the document's first server
   * (its variables at their defaults). Required when that server URL is relative and no `fetch` is given.
   */
  readonly baseUrl?: string;
  /** Sends the requests (default the global `fetch`); give `app.fetch` to call an in-process app. */
  readonly fetch?: FetchLike;
  /** Credentials for the document's securitySchemes (see {@link AuthOptions}); none by default. */
  readonly auth?: AuthOptions;
  /** Headers sent with every request (e.g. a User-Agent the API asks for). Nothing else is forwarded. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * `"tools"` (default): one tool per operation. `"dynamic"`: three tools, `list_operations`,
   * `describe_operation` and `call_operation`, whatever the size of the API.
   */
  readonly mode?: "tools" | "dynamic";
  /**
   * Origins besides the API's own that a redirect may lead to (`"https://cdn.example.com"`); `"*"` any origin
   * whose host is not loopback, private or link-local (unless the API's own server is). Credentials are never
   * sent to another origin. Default none: only same-origin redirects are followed.
   */
  readonly redirectOrigins?: readonly string[];
  /** Redirects followed at most per call; 0 returns a 3xx response as the result. Default 5. */
  readonly maxRedirects?: number;
  /** Time limit of one HTTP request, ms. Default 30000. */
  readonly requestTimeoutMs?: number;
  /** Largest response body read, bytes; the rest is cut and the result says so. Default 1 MiB. */
  readonly maxResponseBytes?: number;
  /** Declare each operation's 2xx JSON response schema as the tool's `outputSchema` (then checked). Default false. */
  readonly outputSchemas?: boolean;
}

/** Every key {@link openapiTools} takes; any other is refused (the compiler checks that none is missing). */
export const OPENAPI_KEYS = [
  "baseUrl",
  "fetch",
  "auth",
  "headers",
  "mode",
  "redirectOrigins",
  "maxRedirects",
  "requestTimeoutMs",
  "maxResponseBytes",
  "outputSchemas",
  "include",
  "exclude",
  "methods",
  "readOnly",
  "names",
  "maxDescription",
  "allowNetwork",
  "allowHosts",
  "trusted",
] as const satisfies readonly (keyof OpenApiToolsOptions)[];
const OPENAPI_KEYS_COMPLETE: [Exclude<keyof OpenApiToolsOptions, (typeof OPENAPI_KEYS)[number]>] extends [never]
  ? true
  : never = true;
void OPENAPI_KEYS_COMPLETE;

/** @throws OpenApiError for a key {@link openapiTools} does not know (`readonly` for `readOnly` would expose every write). */
function checkKeys(options: object): void {
  const unknown = unknownKey(options, OPENAPI_KEYS);
  if (unknown) throw new OpenApiError(`openapiTools(): ${unknown}`);
}

/**
 * Makes tools of an OpenAPI 3.0 or 3.1 document (JSON or YAML): one per selected operation, named from
 * its operationId (else `<method>_<path>`), with its parameters and body properties as one input
 * object; each call sends the HTTP request and returns the response as the result. The tools are
 * ordinary {@link Tool}s: pass them to `serve()` beside others.
 * @param source - a file path, an http(s) URL (with `allowNetwork`), or a parsed document.
 * @param options - see {@link OpenApiToolsOptions}.
 * @returns the tools, in document order (dynamic mode: three tools).
 * @throws OpenApiError when an option key is unknown, the document cannot be read, parsed or used (naming the place and the
 *   reason), an `auth` entry names no scheme, a name is invalid, or no base URL can be found.
 */
export async function openapiTools(source: OpenApiSource, options: OpenApiToolsOptions = {}): Promise<Tool[]> {
  checkKeys(options);
  const { document, origin } = await loadDocument(source, options);
  return toolsOfDocument(document, origin, options);
}

/**
 * {@link openapiTools} for a document already loaded by `loadDocument` (used by the code `mcpbin openapi`
 * generates, which embeds the loaded document).
 */
export function toolsOfDocument(document: OpenApiDocument, origin: string, options: OpenApiToolsOptions = {}): Tool[] {
  checkKeys(options);
  const ops = operationsOf(document, options);
  const schemes = schemesOf(document, options.auth);
  const call = caller(document, origin, schemes, options);
  if (options.mode === "dynamic") return dynamicTools(document, ops, call);
  if (options.mode !== undefined && options.mode !== "tools")
    throw new OpenApiError(`mode must be "tools" or "dynamic", not ${JSON.stringify(options.mode)}`);
  return ops.map((op) =>
    tool({
      name: op.name,
      ...(op.summary ? { title: op.summary.slice(0, 120) } : {}),
      description: op.description,
      inputSchema: op.inputSchema(),
      ...(options.outputSchemas && op.outputSchema() ? { outputSchema: op.outputSchema() } : {}),
      annotations: annotationsOf(op.method),
      run: (args: Record<string, unknown>, ctx) => call(op, args, ctx.signal),
    }),
  );
}

/** Hints from the HTTP method: GET/HEAD/OPTIONS read only; DELETE destructive and idempotent; PUT idempotent. */
export function annotationsOf(method: string): ToolAnnotations {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return { readOnlyHint: true, openWorldHint: true };
  if (method === "DELETE")
    return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
  if (method === "PUT") return { readOnlyHint: false, idempotentHint: true, openWorldHint: true };
  return { readOnlyHint: false, openWorldHint: true };
}

const NO_CREDENTIALS: Applied & { missing?: string } = { headers: [], query: [], cookies: [] };

/** The origin of a base URL (the URL itself when it does not parse: it never equals an origin). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The first server's URL with its variables at their defaults. */
function serverUrl(servers: unknown): string | undefined {
  const s = Array.isArray(servers)
    ? (servers[0] as { url?: unknown; variables?: Record<string, { default?: unknown }> } | undefined)
    : undefined;
  if (!s || typeof s.url !== "string") return undefined;
  return s.url.replace(/\{([^}]+)\}/g, (m, v: string) =>
    s.variables?.[v]?.default !== undefined ? String(s.variables[v]!.default) : m,
  );
}

/** The redirect options checked, origins normalised (`https://A.example/` → `https://a.example`). */
function redirectPolicy(o: OpenApiToolsOptions): RedirectPolicy {
  const max = o.maxRedirects ?? 5;
  if (!Number.isInteger(max) || max < 0)
    throw new OpenApiError(`maxRedirects must be an integer ≥ 0, not ${JSON.stringify(o.maxRedirects)}`);
  const origins = (o.redirectOrigins ?? []).map((x) => {
    if (x === "*") return x;
    try {
      const u = new URL(x);
      if (u.protocol === "http:" || u.protocol === "https:") return u.origin;
    } catch {}
    throw new OpenApiError(`redirectOrigins: ${JSON.stringify(x)} is not an origin; give "https://host[:port]" or "*"`);
  });
  return { origins, max };
}

function caller(
  doc: OpenApiDocument,
  origin: string,
  schemes: ReadonlyMap<string, Scheme>,
  o: OpenApiToolsOptions,
): Caller {
  const fetchFn: FetchLike = o.fetch ?? ((r) => fetch(r));
  const timeoutMs = o.requestTimeoutMs ?? 30_000;
  const limits = { maxBytes: o.maxResponseBytes ?? 1024 * 1024, errorChars: 2000 };
  const headers = o.headers ?? {};
  const policy = redirectPolicy(o);
  const bases = new Map<unknown, string>();
  const baseFor = (servers: unknown): string => {
    if (o.baseUrl !== undefined) return o.baseUrl;
    let b = bases.get(servers);
    if (b !== undefined) return b;
    const raw = serverUrl(servers) ?? serverUrl(doc.servers) ?? "/";
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) b = raw;
    else if (/^https?:\/\//i.test(origin)) b = new URL(raw, origin).href;
    else if (o.fetch) b = new URL(raw, "http://localhost").href;
    else
      throw new OpenApiError(
        `the document's server URL ${JSON.stringify(raw)} is relative: pass baseUrl (e.g. baseUrl: "https://api.example.com${raw === "/" ? "" : raw}")`,
      );
    bases.set(servers, b);
    return b;
  };
  // Fail at definition, not at the first call. Credentials go to this origin only: an operation whose own `servers`
  // entry is another origin is sent without them, nor the `headers` option's (the document does not choose where the
  // API's keys go).
  const home = originOf(baseFor(undefined));
  return async (op, args, signal) => {
    const base = baseFor(op.servers);
    const away = originOf(base) !== home ? originOf(base) : undefined;
    const applied = away === undefined ? applySecurity(op.security, schemes, process.env) : NO_CREDENTIALS;
    let built: ReturnType<typeof buildRequest>;
    try {
      built = buildRequest(op, args, base, applied, away === undefined ? headers : {});
    } catch (e) {
      if (e instanceof PathValueError || e instanceof CredentialSlotError)
        return toolResult({ isError: true, content: [textContent(`${op.method} ${op.path}: ${e.message}`)] });
      throw e;
    }
    const { url, init } = built;
    const shown = `${op.method} ${url.split("?")[0]}`; // no query: it may hold an API key
    const timeout = AbortSignal.timeout(timeoutMs);
    let res: Response;
    let finalUrl: string;
    try {
      const sent = await sendFollowing(
        fetchFn,
        url,
        init,
        applied,
        Object.keys(headers),
        policy,
        AbortSignal.any([signal, timeout]),
      );
      if ("refused" in sent) return toolResult({ isError: true, content: [textContent(`${shown} ${sent.refused}`)] });
      ({ response: res, url: finalUrl } = sent);
    } catch (e) {
      if (signal.aborted) throw e;
      const why = timeout.aborted
        ? `timed out after ${timeoutMs} ms (requestTimeoutMs)`
        : `failed: ${(e as Error)?.message ?? e}`;
      return toolResult({ isError: true, content: [textContent(`${shown} ${why}`)] });
    }
    const result = await toToolResult(res, op.method, finalUrl.split("?")[0]!, limits);
    const why =
      away !== undefined && op.security.length > 0
        ? `this operation's server ${away} is not the API's origin ${home}, and credentials go to that origin only`
        : applied.missing && `set ${applied.missing}`;
    if (why && (res.status === 401 || res.status === 403) && result.content?.[0]?.type === "text") {
      return toolResult({
        isError: true,
        content: [textContent(`${(result.content[0] as { text: string }).text}\n(no credentials were sent: ${why})`)],
      });
    }
    return result;
  };
}
