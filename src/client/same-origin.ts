/** @module An HTTP upstream's requests with redirects followed only within its origin, so its configured headers and bodies never go to another. */

const REDIRECT = new Set([301, 302, 303, 307, 308]);

/**
 * Sends a request to an upstream's endpoint, following redirects by hand within the endpoint's origin (the
 * runtime's own following re-sends custom headers such as `X-API-Key`, and the body of a 307/308, to any
 * origin; it strips only `Authorization`). A redirect to another origin is an error naming it: the headers
 * configured for the upstream are meant for its origin only.
 * @param send - the fetch function.
 * @param url - the endpoint.
 * @param init - method, headers, body (a string or nothing: re-sent as is on a same-origin redirect).
 * @param max - redirects followed at most.
 * @returns the final response.
 * @throws Error on a redirect to another origin, or more than `max` redirects.
 */
export async function fetchSameOrigin(send: typeof fetch, url: URL, init: RequestInit, max = 5): Promise<Response> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await send(current, { ...init, redirect: "manual" });
    const location = res.headers.get("location");
    if (!REDIRECT.has(res.status) || location === null) return res;
    await res.body?.cancel().catch(() => {});
    const next = new URL(location, current);
    if (next.origin !== url.origin) {
      throw new Error(
        `the endpoint redirected to ${next.origin}${next.pathname}, another origin: not followed, since its headers and body are for ${url.origin} (configure that URL instead if it is right)`,
      );
    }
    if (hop >= max) throw new Error(`the endpoint redirected more than ${max} times`);
    current = next;
  }
}
