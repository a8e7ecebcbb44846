// A call reaches only the operation it names: redirects are followed by hand — same origin by default, other
// origins only when listed, a hop limit, every credential the auth layer added dropped on an origin change, and
// loopback/private/link-local targets refused unless the document's own server is one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openapiTools, type Tool } from "../../src/index.ts";

interface Hit {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}
/** A loopback server that records what reaches it; `route` answers, default an echo. */
function recorder(route: (u: URL, req: Request) => Response | undefined = () => undefined) {
  const hits: Hit[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      hits.push({
        method: req.method,
        url: u.pathname + u.search,
        headers: Object.fromEntries(req.headers),
        body: await req.text(),
      });
      return route(u, req) ?? Response.json({ at: u.pathname, method: req.method });
    },
  });
  return { hits, origin: `http://127.0.0.1:${server.port}`, stop: () => void server.stop(true) };
}

const other = recorder(); // another origin: must never see a credential
const api = recorder((u) => {
  const to = (location: string, status = 302) => new Response(null, { status, headers: { location } });
  if (u.pathname === "/v1/old") return to("/v1/new");
  if (u.pathname === "/v1/away") return to(`${other.origin}/steal${u.search}`);
  if (u.pathname === "/v1/loop") return to("/v1/loop");
  if (u.pathname === "/v1/see-other") return to("/v1/new", 303);
  if (u.pathname === "/v1/temporary") return to("/v1/new", 307);
  return undefined;
});

const op = (operationId: string, method = "get") => ({
  [method]: {
    operationId,
    security: [{ hkey: [], qkey: [], ckey: [] }],
    requestBody:
      method === "post"
        ? { content: { "application/json": { schema: { type: "object", properties: { a: { type: "string" } } } } } }
        : undefined,
    responses: { 200: { description: "ok" } },
  },
});
const DOC = {
  openapi: "3.1.0",
  info: { title: "redirects", version: "1" },
  servers: [{ url: "https://api.example.test/v1" }],
  paths: {
    "/old": op("old"),
    "/away": op("away"),
    "/loop": op("loop"),
    "/see-other": op("see_other", "post"),
    "/temporary": op("temporary", "post"),
  },
  components: {
    securitySchemes: {
      hkey: { type: "apiKey", in: "header", name: "X-API-Key" },
      qkey: { type: "apiKey", in: "query", name: "api_key" },
      ckey: { type: "apiKey", in: "cookie", name: "sid" },
    },
  },
};
const auth = { hkey: { value: "H-SECRET" }, qkey: { value: "Q-SECRET" }, ckey: { value: "C-SECRET" } };

async function run(tools: Tool[], name: string, args: Record<string, unknown> = {}) {
  api.hits.length = 0;
  other.hits.length = 0;
  const r = (await tools.find((t) => t.name === name)!(args)) as {
    isError?: boolean;
    content: { text: string }[];
    structuredContent?: unknown;
  };
  return {
    isError: r.isError === true,
    text: r.content[0]!.text,
    data: r.structuredContent as { at: string; method: string },
  };
}
const leaked = (hits: Hit[]) => JSON.stringify(hits).match(/[HQC]-SECRET/g) ?? [];

let direct: Tool[];
beforeAll(async () => {
  direct = await openapiTools(DOC, { baseUrl: `${api.origin}/v1`, auth });
});
afterAll(() => {
  api.stop();
  other.stop();
});

test("redirects: a same-origin redirect is followed with the credentials", async () => {
  const r = await run(direct, "old");
  expect(r.isError).toBe(false);
  expect(r.data.at).toBe("/v1/new");
  expect(api.hits.map((h) => h.url.split("?")[0])).toEqual(["/v1/old", "/v1/new"]);
  expect(api.hits[1]!.headers["x-api-key"]).toBe("H-SECRET");
});

test("redirects: another origin is not followed unless listed", async () => {
  const r = await run(direct, "away");
  expect(r.isError).toBe(true);
  expect(r.text).toContain(other.origin);
  expect(r.text).toContain("redirectOrigins");
  expect(r.text).not.toContain("Q-SECRET");
  expect(other.hits).toEqual([]);
});

test("redirects: on an origin change every credential the auth layer added is dropped (header, query key, cookie)", async () => {
  const tools = await openapiTools(DOC, { baseUrl: `${api.origin}/v1`, auth, redirectOrigins: [other.origin] });
  const r = await run(tools, "away");
  expect(r.isError).toBe(false);
  expect(other.hits.length).toBe(1);
  expect(api.hits[0]!.headers["x-api-key"]).toBe("H-SECRET"); // the API itself got them
  expect(leaked(other.hits)).toEqual([]);
  expect(other.hits[0]!.headers.cookie).toBeUndefined();
});

test("redirects: a hop limit (maxRedirects) stops a loop", async () => {
  const tools = await openapiTools(DOC, { baseUrl: `${api.origin}/v1`, auth, maxRedirects: 3 });
  const r = await run(tools, "loop");
  expect(r.isError).toBe(true);
  expect(r.text).toContain("maxRedirects");
  expect(api.hits.length).toBe(4);
  const none = await openapiTools(DOC, { baseUrl: `${api.origin}/v1`, auth, maxRedirects: 0 });
  expect((await run(none, "old")).isError).toBe(true);
  expect(api.hits.length).toBe(1);
});

test("redirects: 303 turns a POST into a GET without its body; 307 keeps both", async () => {
  const see = await run(direct, "see_other", { a: "x" });
  expect(see.data).toEqual({ at: "/v1/new", method: "GET" });
  expect(api.hits[1]!.body).toBe("");
  const tmp = await run(direct, "temporary", { a: "x" });
  expect(tmp.data).toEqual({ at: "/v1/new", method: "POST" });
  expect(JSON.parse(api.hits[1]!.body)).toEqual({ a: "x" });
});

test("redirects: loopback, private and link-local targets are refused when the document's server is public", async () => {
  // The API answers at a public name (in-process); its redirect points into the machine's own network.
  const targets = [
    `${other.origin}/steal`,
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.7/",
    "http://[::1]:1/",
    "http://localhost:1/",
  ];
  let i = 0;
  const publicApi = (req: Request) => {
    if (new URL(req.url).hostname === "api.example.test")
      return new Response(null, { status: 302, headers: { location: targets[i]! } });
    return fetch(req);
  };
  const tools = await openapiTools(DOC, { fetch: publicApi, auth, redirectOrigins: ["*"] });
  for (; i < targets.length; i++) {
    const r = await run(tools, "away");
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/loopback|private|link-local/);
  }
  expect(other.hits).toEqual([]);
  // Listed by name, the author's choice wins; a loopback document server may redirect to loopback.
  i = 0;
  const named = await openapiTools(DOC, { fetch: publicApi, auth, redirectOrigins: [other.origin] });
  expect((await run(named, "away")).isError).toBe(false);
  const local = await openapiTools(DOC, { baseUrl: `${api.origin}/v1`, auth, redirectOrigins: ["*"] });
  expect((await run(local, "away")).isError).toBe(false);
  expect(leaked(other.hits)).toEqual([]);
});

test("redirects: a loopback, private or link-local address in another spelling is refused too", async () => {
  // The URL parser turns [::ffff:127.0.0.1] into [::ffff:7f00:1] and 2130706433 into 127.0.0.1; an IPv6 address can
  // carry an IPv4 one (mapped, compatible, NAT64, 6to4); `localhost.` is localhost.
  const targets = [
    `http://[::ffff:127.0.0.1]:${new URL(other.origin).port}/steal`,
    "http://[::ffff:a9fe:a9fe]/latest/meta-data/",
    "http://[0:0:0:0:0:ffff:10.0.0.7]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:a9fe:a9fe::]/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://0.0.0.0/",
    "http://localhost./",
    "http://[fec0::1]/",
  ];
  let i = 0;
  const reached: string[] = [];
  const publicApi = (req: Request) => {
    if (new URL(req.url).hostname === "api.example.test")
      return new Response(null, { status: 302, headers: { location: targets[i]! } });
    reached.push(req.url);
    return new Response("reached");
  };
  const tools = await openapiTools(DOC, { fetch: publicApi, auth, redirectOrigins: ["*"] });
  for (; i < targets.length; i++) {
    const r = await run(tools, "away");
    expect({ target: targets[i], isError: r.isError }).toEqual({ target: targets[i], isError: true });
    expect(r.text).toMatch(/loopback|private|link-local/);
  }
  expect(reached).toEqual([]);
});
