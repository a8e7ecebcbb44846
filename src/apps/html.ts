/** @module An app's HTML at run time: embedded by `mcpbin build`, or bundled from source (and again when its files change). */
import { contract } from "../runtime/contract.ts";
import type { App } from "./app.ts";
import type { BundledView } from "./view.ts";

const fromSource = new WeakMap<App, Promise<BundledView | string>>();

/**
 * The document an app serves: the one embedded at build time when there is one (an executable reads no
 * file), otherwise built from source now: `html` (plus the no-script runtime when it uses `data-mcp-*`),
 * or the `view` bundled by Bun, cached until one of its files changes (so `mcpbin dev` serves edits).
 * @param a - an app.
 * @returns one HTML5 document.
 * @throws ViewBuildError when the view cannot be bundled (missing file, failing bundle, external reference).
 */
export async function appHtml(a: App): Promise<string> {
  const embedded = contract().views?.get(a.uri);
  if (embedded !== undefined) return embedded;
  const { bundleView, isStale, buildAppHtml } = await import("./view.ts");
  let pending = fromSource.get(a);
  if (pending) {
    const done = await pending.catch(() => undefined);
    if (done === undefined || (typeof done !== "string" && isStale(done))) pending = undefined;
  }
  if (!pending) {
    pending = a.view !== undefined ? bundleView(a) : buildAppHtml(a);
    fromSource.set(a, pending);
  }
  const r = await pending;
  return typeof r === "string" ? r : r.html;
}
