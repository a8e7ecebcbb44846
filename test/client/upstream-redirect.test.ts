// No credential sent elsewhere: an HTTP upstream (connect({ url, headers }), serve({ upstreams }), mcpbin proxy)
// whose endpoint redirects to another origin does not get the configured headers (API keys, tokens) or the
// request body re-sent there; the runtime's own redirect following strips only Authorization.
import { afterAll, expect, test } from "bun:test";
import { connect } from "../../src/client/connect.ts";

/** A loopback server recording what reaches it. */
function recorder(route: (req: Request) => Response) {
  const hits: { path: string; headers: Record<string, string>; body: string }[] = [];
  const s = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      hits.push({ path: new URL(req.url).pathname, headers: Object.fromEntries(req.headers), body: await req.text() });
      return route(req);
    },
  });
  return { hits, origin: `http://127.0.0.1:${s.port}`, stop: () => void s.stop(true) };
}
const elsewhere = recorder(() => new Response("nothing here", { status: 404 }));
const upstream = recorder(
  () => new Response(null, { status: 307, headers: { location: `${elsewhere.origin}/collect` } }),
);
afterAll(() => {
  upstream.stop();
  elsewhere.stop();
});

test("no credential sent elsewhere: an HTTP upstream redirecting to another origin gets neither its headers nor its body re-sent there", async () => {
  const e = await connect(
    { url: `${upstream.origin}/mcp`, headers: { "x-api-key": "UP-SECRET", authorization: "Bearer UP-TOKEN" } },
    { name: "redirecting", startTimeoutMs: 3000 },
  ).catch((x: Error) => x);
  expect(e).toBeInstanceOf(Error);
  expect(upstream.hits.length).toBeGreaterThan(0);
  expect(upstream.hits[0]!.headers["x-api-key"]).toBe("UP-SECRET");
  expect(JSON.stringify(elsewhere.hits)).not.toMatch(/UP-SECRET|UP-TOKEN|initialize/);
  expect(String((e as Error).message)).toContain(elsewhere.origin);
});
