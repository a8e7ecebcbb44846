/** @module An app as the `ui://` resource a server lists and reads: the MCP App MIME type, one HTML document, `_meta.ui` on both the list entry and the content item. */
import { resource, type Resource } from "../content/resource.ts";
import { APP_MIME_TYPE, type App } from "./app.ts";
import { appHtml } from "./html.ts";

/**
 * The resource of an app (MCP Apps 2026-01-26, UI resource): read gives exactly one text item with
 * `mimeType: "text/html;profile=mcp-app"` and the document; the app's `_meta.ui` (csp, permissions, domain,
 * prefersBorder) is put on the list entry and on the item alike, since hosts read either (one host built
 * its CSP from the list alone and rendered blank frames).
 * @param a - an app.
 * @returns a resource for the server's catalog.
 */
export function appResource(a: App): Resource {
  const meta = a.uiMeta ? { ui: a.uiMeta } : undefined;
  return resource({
    uri: a.uri,
    name: a.name,
    ...(a.title !== undefined ? { title: a.title } : {}),
    ...(a.description !== undefined ? { description: a.description } : {}),
    mimeType: APP_MIME_TYPE,
    ...(meta ? { meta } : {}),
    read: async () => ({ uri: a.uri, mimeType: APP_MIME_TYPE, text: await appHtml(a), ...(meta ? { meta } : {}) }),
  });
}
