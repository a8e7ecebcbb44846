/**
 * @module The request-echo API of the OpenAPI tests on Bun.serve (127.0.0.1, a free port): answers every
 * request with what it received (method, raw path, raw query, headers, body text) as JSON, except
 * /v1/missing (404), /v1/big (a 5 MB JSON body) and /v1/image (a PNG). Run as a script, it prints its URL.
 */
export interface Echo {
  /** The base URL of the API, e.g. http://127.0.0.1:4312/v1. */
  readonly url: string;
  stop(): void;
}

/** One pixel, PNG. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The echo API's handler, for an in-process `fetch` option or a server of its own. */
export async function echoFetch(req: Request): Promise<Response> {
  const raw = req.url.slice(req.url.indexOf("/", req.url.indexOf("//") + 2));
  const q = raw.indexOf("?");
  const path = q === -1 ? raw : raw.slice(0, q);
  if (path === "/v1/missing")
    return new Response("no such thing here", {
      status: 404,
      statusText: "Not Found",
      headers: { "content-type": "text/plain" },
    });
  if (path === "/v1/big") return Response.json({ data: "x".repeat(5 * 1024 * 1024) });
  if (path === "/v1/image") return new Response(PNG, { headers: { "content-type": "image/png" } });
  return Response.json({
    method: req.method,
    path,
    query: q === -1 ? "" : raw.slice(q + 1),
    headers: Object.fromEntries(req.headers),
    body: await req.text(),
  });
}

export function startEcho(): Echo {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: echoFetch });
  return { url: `http://127.0.0.1:${server.port}/v1`, stop: () => void server.stop(true) };
}

if (import.meta.main) {
  const e = startEcho();
  process.stdout.write(`${e.url}\n`);
}
