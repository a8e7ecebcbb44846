/** @module An operation's request sent with its redirects followed by hand: same origin by default, a hop limit, credentials dropped on an origin change, private targets refused. */
import type { Applied } from "./auth.ts";
import { localKind } from "./local-address.ts";

/** How redirects are followed (from `openapiTools()` options). */
export interface RedirectPolicy {
  /** Origins besides the API's own that a redirect may lead to (`scheme://host[:port]`); `"*"` any public one. */
  readonly origins: readonly string[];
  /** Redirects followed at most; 0 returns a 3xx as the result. */
  readonly max: number;
}

/** What sending a request came to: the final response, or why a redirect was not followed. */
export type Sent = { readonly response: Response; readonly url: string } | { readonly refused: string };

const REDIRECT = new Set([301, 302, 303, 307, 308]);

/**
 * Sends a request and follows its redirects by hand (the runtime's `redirect: "follow"` would send the API key
 * header to any origin and reach any host). A redirect is followed to the same origin, or to one listed in
 * `policy.origins`; on the first change of origin every credential `auth` added (headers, query keys, cookies),
 * the configured `extraHeaders`, and `Authorization`/`Cookie` are dropped for the rest of the chain. With `"*"`, a
 * target whose host is or resolves to a loopback, private or link-local address is refused unless the API's own
 * server is one. 303 (and 301/302 after a POST) continues as GET without a body, as browsers do; 307/308 keep both.
 * @param send - the fetch function.
 * @param url - the first URL.
 * @param init - method, headers and body (reusable: a string, form or nothing).
 * @param auth - what the security requirements added.
 * @param extraHeaders - names of the configured fixed headers (they may hold keys too).
 * @param policy - see {@link RedirectPolicy}.
 * @param signal - aborts every hop.
 * @returns the final response and its URL, or the reason a redirect was refused (the URL shown without its query).
 */
export async function sendFollowing(
  send: (request: Request) => Response | Promise<Response>,
  url: string,
  init: { method: string; headers: Headers; body?: BodyInit },
  auth: Applied,
  extraHeaders: readonly string[],
  policy: RedirectPolicy,
  signal: AbortSignal,
): Promise<Sent> {
  const home = new URL(url).origin;
  let current = url;
  let method = init.method;
  let body = init.body;
  const headers = new Headers(init.headers);
  let stripped = false;
  for (let hop = 0; ; hop++) {
    const response = await send(new Request(current, { method, headers, body, signal, redirect: "manual" }));
    const location = response.headers.get("location");
    if (!REDIRECT.has(response.status) || location === null) return { response, url: current };
    void response.body?.cancel().catch(() => {});
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return { refused: `redirected to ${JSON.stringify(location.slice(0, 200))}, which is not a URL` };
    }
    const shown = `${next.origin}${next.pathname}`;
    if (hop >= policy.max)
      return {
        refused: `redirected again to ${shown} after ${policy.max} redirect(s): not followed (maxRedirects: ${policy.max})`,
      };
    if (next.protocol !== "http:" && next.protocol !== "https:")
      return { refused: `redirected to ${next.protocol} URL: only http and https are followed` };
    if (next.origin !== home) {
      const listed = policy.origins.includes(next.origin);
      if (!listed && !policy.origins.includes("*")) {
        return {
          refused: `redirected to ${shown}, another origin than the API's (${home}): not followed; list it in redirectOrigins to follow it (credentials are never sent there)`,
        };
      }
      if (!listed) {
        const why = (await localKind(new URL(home).hostname)) ? undefined : await localKind(next.hostname);
        if (why)
          return {
            refused: `redirected to ${shown}, a ${why} address: not followed (the API's own server is not one; list the origin in redirectOrigins to allow it)`,
          };
      }
      if (!stripped) {
        stripped = true;
        for (const name of [
          ...auth.headers.map(([k]) => k),
          ...extraHeaders,
          "authorization",
          "cookie",
          "proxy-authorization",
        ])
          headers.delete(name);
      }
    }
    if (stripped) for (const [k] of auth.query) next.searchParams.delete(k);
    if (
      response.status === 303
        ? method !== "HEAD"
        : (response.status === 301 || response.status === 302) && method === "POST"
    ) {
      method = "GET";
      body = undefined;
      headers.delete("content-type");
    }
    current = next.href;
  }
}
