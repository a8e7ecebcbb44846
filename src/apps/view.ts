/**
 * @module View bundling (runs where Bun and the sources are: `mcpbin build`, `mcpbin dev`, a script run from
 * source): an app's HTML entry with its scripts and styles into one self-contained document, the no-script
 * runtime inlined when the document uses `data-mcp-*` attributes, and the check that nothing external is left.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { App } from "./app.ts";

/** A view bundle failed or is not self-contained; `message` is one line that says what to change. */
export class ViewBuildError extends Error {
  override readonly name = "ViewBuildError";
  constructor(message: string) {
    super(message);
  }
}

/** One bundled document and the files it was made from (for rebuilding when they change). */
export interface BundledView {
  readonly html: string;
  /** Absolute paths of every input file, with their modification times (ms) when bundled. */
  readonly inputs: ReadonlyMap<string, number>;
}

const USES_RUNTIME = /\sdata-mcp-(?:tool|input|output)\b/;
let runtimeJs: Promise<string> | undefined;

/** The no-script runtime (src/apps/runtime.ts) bundled for the browser, minified; built once per process. */
export function runtimeScript(): Promise<string> {
  runtimeJs ??= (async () => {
    const r = await Bun.build({
      entrypoints: [resolve(import.meta.dir, "runtime.ts")],
      target: "browser",
      format: "esm",
      minify: true,
      throw: false,
    });
    const out = r.outputs.find((o) => o.kind === "entry-point");
    if (!r.success || !out)
      throw new ViewBuildError(`bundling the no-script view runtime failed: ${r.logs.map(String)[0] ?? "no output"}`);
    return out.text();
  })();
  return runtimeJs;
}

/**
 * Adds the no-script runtime to a document that uses `data-mcp-tool`, `data-mcp-input` or `data-mcp-output`
 * (as a module script before `</body>`, or at the end); other documents are returned unchanged.
 * @param html - a whole HTML document.
 */
export async function withRuntime(html: string): Promise<string> {
  if (!USES_RUNTIME.test(html) || html.includes("data-mcpbin-runtime")) return html;
  const js = (await runtimeScript()).replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
  const tag = `<script type="module" data-mcpbin-runtime>${js}</script>`;
  const at = html.lastIndexOf("</body>");
  return at < 0 ? html + tag : html.slice(0, at) + tag + html.slice(at);
}

const RESOURCE_ATTR =
  /<(script|link|img|iframe|source|video|audio|embed|object|track|input)\b[^>]*?\s(src|href|data|poster|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/**
 * The first reference to something outside the document (a `src`/`href` that is not a data: URL or a
 * fragment, and not under an origin the app declared in `csp.resourceDomains`), or undefined.
 * @param html - the bundled document.
 * @param resourceDomains - origins the view may load from (wildcards as a subdomain).
 */
export function externalReference(html: string, resourceDomains: readonly string[] = []): string | undefined {
  for (const m of html.matchAll(RESOURCE_ATTR)) {
    const tag = m[1]!.toLowerCase();
    const value = (m[3] ?? m[4] ?? m[5] ?? "").trim();
    if (tag === "link" && !/\srel\s*=\s*["']?(?:stylesheet|preload|modulepreload|icon)/i.test(m[0])) continue;
    if (
      value === "" ||
      value.startsWith("data:") ||
      value.startsWith("#") ||
      value.startsWith("blob:") ||
      value.startsWith("about:")
    )
      continue;
    if (resourceDomains.some((d) => underOrigin(value, d))) continue;
    return `${tag} ${m[2]}="${value}"`;
  }
  return undefined;
}

/**
 * Bundles an app's view with Bun (`Bun.build`, HTML entry, `compile` to one file for the browser, minified):
 * its scripts (TypeScript, npm imports) and styles are inlined, then the no-script runtime when it is used.
 * @param a - an app defined with `view`.
 * @returns the document and its inputs.
 * @throws ViewBuildError (one line) when the file is missing, the bundle fails, or the result still
 *   references a file or origin that is not declared in `csp.resourceDomains`.
 */
export async function bundleView(a: App): Promise<BundledView> {
  const path = a.view!;
  const where = `app "${a.uri}"`;
  if (!existsSync(path))
    throw new ViewBuildError(
      `${where}: view file not found: ${path}; "view" is resolved against the module that calls app()`,
    );
  let r: Awaited<ReturnType<typeof Bun.build>>;
  try {
    r = await Bun.build({
      entrypoints: [path],
      target: "browser",
      minify: true,
      throw: false,
      metafile: true,
      compile: true,
    } as Parameters<typeof Bun.build>[0]);
  } catch (e) {
    throw new ViewBuildError(`${where}: bundling ${path} failed: ${firstLine(e)}`);
  }
  const out = r.outputs.find((o) => o.path.endsWith(".html"));
  if (!r.success || !out)
    throw new ViewBuildError(`${where}: bundling ${path} failed: ${firstLine(r.logs[0] ?? "no HTML output")}`);
  const html = await withRuntime(await out.text());
  const external = externalReference(html, a.uiMeta?.csp?.resourceDomains);
  if (external)
    throw new ViewBuildError(
      `${where}: the bundled view still loads ${external}; bundle it (a relative import) or declare its origin in csp.resourceDomains`,
    );
  const inputs = new Map<string, number>();
  const meta = (r as { metafile?: { inputs?: Record<string, unknown> } }).metafile;
  for (const p of Object.keys(meta?.inputs ?? {})) {
    const abs = resolve(p);
    inputs.set(abs, mtime(abs));
  }
  inputs.set(path, mtime(path));
  return { html, inputs };
}

/** Whether any input of a bundle changed (or went away) since it was made. */
export function isStale(b: BundledView): boolean {
  for (const [p, t] of b.inputs) if (mtime(p) !== t) return true;
  return false;
}

/**
 * The final document of any app: `html` as given (plus the runtime when used), or the bundled `view`.
 * @throws ViewBuildError as {@link bundleView}.
 */
export async function buildAppHtml(a: App): Promise<string> {
  if (a.html !== undefined) return withRuntime(a.html);
  return (await bundleView(a)).html;
}

/** Whether a URL is under a CSP origin (`https://*.example.com` matches any subdomain). */
function underOrigin(url: string, origin: string): boolean {
  let u: URL;
  let o: URL;
  try {
    u = new URL(url);
    o = new URL(origin.replace("://*.", "://wildcard."));
  } catch {
    return false;
  }
  if (u.protocol !== o.protocol || u.port !== o.port) return false;
  return origin.includes("://*.")
    ? u.hostname.endsWith(o.hostname.slice("wildcard".length))
    : u.hostname === o.hostname;
}

function mtime(p: string): number {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return -1;
  }
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0]!;
}
