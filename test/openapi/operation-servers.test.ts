// The API's credentials go to the API's origin only: an operation whose own `servers` entry names another origin is
// sent there without them (nor the `headers` option's), and a 401 from it says why; with baseUrl every operation goes
// to the one origin the author chose, with its credentials.
import { afterAll, expect, test } from "bun:test";
import { openapiTools } from "../../src/index.ts";

const seen: string[] = [];
const serve = (tag: string) =>
  Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const u = new URL(req.url);
      seen.push(
        `${tag} ${u.pathname} key=${req.headers.get("x-key")} q=${u.searchParams.get("k")} h=${req.headers.get("x-extra")}`,
      );
      return req.headers.get("x-key") ? Response.json({ ok: true }) : new Response("who are you", { status: 401 });
    },
  });
const api = serve("api");
const other = serve("other");
afterAll(() => [api, other].forEach((s) => s.stop(true)));

const DOC = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  servers: [{ url: `http://127.0.0.1:${api.port}` }],
  security: [{ key: [], q: [] }],
  paths: {
    "/mine": { get: { operationId: "mine", responses: { 200: { description: "ok" } } } },
    "/theirs": {
      get: {
        operationId: "theirs",
        servers: [{ url: `http://127.0.0.1:${other.port}` }],
        responses: { 200: { description: "ok" } },
      },
    },
  },
  components: {
    securitySchemes: {
      key: { type: "apiKey", in: "header", name: "X-Key" },
      q: { type: "apiKey", in: "query", name: "k" },
    },
  },
};
const auth = { key: { value: "K-SECRET" }, q: { value: "Q-SECRET" } };

test("operation servers: another origin than the API's gets no credential, and its 401 says why", async () => {
  seen.length = 0;
  const tools = await openapiTools(DOC, { auth, headers: { "X-Extra": "E-SECRET" } });
  const run = (name: string) =>
    tools.find((t) => t.name === name)!({}) as Promise<{ isError?: boolean; content: { text: string }[] }>;
  expect((await run("mine")).isError).toBeUndefined();
  const theirs = await run("theirs");
  expect(theirs.isError).toBe(true);
  expect(theirs.content[0]!.text).toContain(`is not the API's origin http://127.0.0.1:${api.port}`);
  expect(seen).toEqual(["api /mine key=K-SECRET q=Q-SECRET h=E-SECRET", "other /theirs key=null q=null h=null"]);
});

test("operation servers: with baseUrl every operation goes to that origin, with the credentials", async () => {
  seen.length = 0;
  const tools = await openapiTools(DOC, { auth, baseUrl: `http://127.0.0.1:${api.port}` });
  expect(((await tools.find((t) => t.name === "theirs")!({})) as { isError?: boolean }).isError).toBeUndefined();
  expect(seen).toEqual(["api /theirs key=K-SECRET q=Q-SECRET h=null"]);
});
