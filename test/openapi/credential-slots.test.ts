// The credentials the auth layer and the `headers` option add are the only values of their slots: an argument that
// would set the same query key, cookie or header (an exploded object's extra keys, a parameter the document names
// like the API key) is refused with an isError result naming it, and nothing is sent; the server would otherwise see
// the argument's value first (most frameworks take the first of repeated query keys and cookies).
import { afterAll, expect, test } from "bun:test";
import { openapiTools } from "../../src/index.ts";

const seen: string[] = [];
const api = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    const u = new URL(req.url);
    seen.push(
      `${u.pathname}?${u.search.slice(1)} cookie=${req.headers.get("cookie")} x-extra=${req.headers.get("x-extra")}`,
    );
    return Response.json({ ok: true });
  },
});
afterAll(() => api.stop(true));

const DOC = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  servers: [{ url: `http://127.0.0.1:${api.port}` }],
  security: [{ q: [], c: [] }],
  paths: {
    "/search": {
      get: {
        operationId: "search",
        parameters: [
          { name: "filter", in: "query", style: "form", explode: true, schema: { type: "object" } },
          { name: "session", in: "cookie", schema: { type: "string" } },
          { name: "X-Extra", in: "header", schema: { type: "string" } },
          { name: "tag", in: "query", schema: { type: "string" } },
        ],
        responses: { 200: { description: "ok" } },
      },
    },
  },
  components: {
    securitySchemes: {
      q: { type: "apiKey", in: "query", name: "api_key" },
      c: { type: "apiKey", in: "cookie", name: "session" },
    },
  },
};
const auth = { q: { value: "Q-SECRET" }, c: { value: "C-SECRET" } };
type Result = { isError?: boolean; content: { text: string }[] };

async function call(args: Record<string, unknown>): Promise<Result> {
  const tools = await openapiTools(DOC, { auth, headers: { "X-Extra": "E-SECRET" } });
  return (await tools.find((t) => t.name === "search")!(args)) as Result;
}

test("credential slots: an exploded query object cannot add a second api_key ahead of the configured one", async () => {
  seen.length = 0;
  const r = await call({ filter: { api_key: "attacker", size: "2" } });
  expect(r.isError).toBe(true);
  expect(r.content[0]!.text).toContain("api_key");
  expect(seen).toEqual([]);
});

test("credential slots: a cookie parameter cannot shadow the API's cookie credential", async () => {
  seen.length = 0;
  const r = await call({ session: "attacker" });
  expect(r.isError).toBe(true);
  expect(r.content[0]!.text).toContain("session");
  expect(seen).toEqual([]);
});

test("credential slots: a header parameter cannot replace a header the headers option sets", async () => {
  seen.length = 0;
  const r = await call({ "X-Extra": "attacker" });
  expect(r.isError).toBe(true);
  expect(r.content[0]!.text.toLowerCase()).toContain("x-extra");
  expect(seen).toEqual([]);
});

test("credential slots: other arguments go through, with the credentials once each", async () => {
  seen.length = 0;
  const r = await call({ filter: { size: "2" }, tag: "a" });
  expect(r.isError).toBeUndefined();
  expect(seen).toEqual([`/search?size=2&tag=a&api_key=Q-SECRET cookie=session=C-SECRET x-extra=E-SECRET`]);
});
