// openapiTools() on small documents of each test's own: output schemas, query keys and basic auth, time limits,
// multipart and label/matrix styles, and $refs to other files.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openapiTools } from "../../src/index.ts";
import { startEcho, type Echo } from "./echo-server.ts";

let echo: Echo;
beforeAll(() => {
  echo = startEcho();
});
afterAll(() => echo.stop());

/** A tiny document served by a handler of the test's own, for the cases the echo document does not cover. */
function miniDoc(paths: Record<string, unknown>, components: Record<string, unknown> = {}) {
  return {
    openapi: "3.1.0",
    info: { title: "mini", version: "1" },
    servers: [{ url: "http://mini.invalid" }],
    paths,
    components,
  };
}
const ok = { 200: { description: "ok" } };

test("outputSchema only on opt-in (then the response is checked); images and binary bodies by content type", async () => {
  const doc = miniDoc({
    "/pet": {
      get: {
        operationId: "pet",
        responses: {
          200: {
            description: "ok",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { name: { type: "string" }, secret: { type: "string", writeOnly: true } },
                },
              },
            },
          },
        },
      },
    },
    "/img": { get: { operationId: "img", responses: ok } },
    "/bin": { get: { operationId: "bin", responses: ok } },
  });
  const app = (req: Request) => {
    const p = new URL(req.url).pathname;
    if (p === "/img")
      return new Response(new Uint8Array([137, 80, 78, 71]), { headers: { "content-type": "image/png" } });
    if (p === "/bin")
      return new Response(new Uint8Array([1, 2, 3]), { headers: { "content-type": "application/octet-stream" } });
    return Response.json({ name: "rex" });
  };
  const plain = await openapiTools(doc, { fetch: app });
  expect(plain[0]!.outputSchema).toBeUndefined();
  const typed = await openapiTools(doc, { fetch: app, outputSchemas: true });
  expect(typed[0]!.outputSchema).toEqual({ type: "object", properties: { name: { type: "string" } } });
  expect(((await typed[0]!({})) as any).structuredContent).toEqual({ name: "rex" });
  expect(((await plain[1]!({})) as any).content[0]).toMatchObject({
    type: "image",
    mimeType: "image/png",
    data: "iVBORw==",
  });
  expect(((await plain[2]!({})) as any).content[0]).toMatchObject({
    type: "resource",
    resource: { uri: "http://mini.invalid/bin", mimeType: "application/octet-stream", blob: "AQID" },
  });
});

test("apiKey in the query and HTTP basic from the environment; the key never shows in a result; a 401 without credentials names the variable", async () => {
  const doc = miniDoc(
    {
      "/q": { get: { operationId: "q", security: [{ qkey: [] }], responses: ok } },
      "/b": { get: { operationId: "b", security: [{ basic: [] }], responses: ok } },
      "/deny": { get: { operationId: "deny", security: [{ basic: [] }], responses: ok } },
    },
    {
      securitySchemes: {
        qkey: { type: "apiKey", in: "query", name: "api_key" },
        basic: { type: "http", scheme: "basic" },
      },
    },
  );
  const seen: string[] = [];
  const app = (req: Request) => {
    seen.push(`${new URL(req.url).search} ${req.headers.get("authorization") ?? ""}`);
    return new URL(req.url).pathname === "/deny" ||
      (new URL(req.url).pathname === "/b" && !req.headers.get("authorization"))
      ? new Response("who are you", { status: 401 })
      : Response.json({ ok: true });
  };
  process.env.MINI_U = "ana";
  process.env.MINI_P = "pw";
  process.env.MINI_Q = "s3cret";
  const t = await openapiTools(doc, {
    fetch: app,
    auth: { qkey: { env: "MINI_Q" }, basic: { username: { env: "MINI_U" }, password: { env: "MINI_P" } } },
  });
  await t[0]!({});
  await t[1]!({});
  expect(seen).toEqual(["?api_key=s3cret ", ` Basic ${Buffer.from("ana:pw").toString("base64")}`]);
  const denied = (await t[2]!({})) as any;
  expect(denied.isError).toBe(true);
  expect(denied.content[0].text).not.toContain("s3cret");
  delete process.env.MINI_U;
  const none = (await t[1]!({})) as any;
  expect(none.isError).toBe(true);
  expect(none.content[0].text).toContain("(no credentials were sent: set MINI_U and MINI_P)");
});

test("a request over its time limit is an isError result; a cancelled call aborts its request", async () => {
  const doc = miniDoc({ "/slow": { get: { operationId: "slow", responses: ok } } });
  let aborted: Promise<void> | undefined;
  const app = (req: Request) =>
    new Promise<Response>((_, reject) => {
      aborted = new Promise((r) => req.signal.addEventListener("abort", () => (r(), reject(req.signal.reason))));
    });
  const [slow] = await openapiTools(doc, { fetch: app, requestTimeoutMs: 50 });
  const r = (await slow!({})) as any;
  expect(r.isError).toBe(true);
  expect(r.content[0].text).toBe("GET http://mini.invalid/slow timed out after 50 ms (requestTimeoutMs)");
  const ctl = new AbortController();
  const call = slow!({}, { signal: ctl.signal });
  await Bun.sleep(0);
  ctl.abort(new Error("cancelled by the client"));
  await expect(call).rejects.toThrow("cancelled by the client");
  await aborted;
});

test("multipart bodies and label/matrix path styles", async () => {
  const doc = miniDoc({
    "/up/{a}/{b}": {
      post: {
        operationId: "up",
        parameters: [
          {
            name: "a",
            in: "path",
            required: true,
            style: "label",
            explode: true,
            schema: { type: "array", items: { type: "string" } },
          },
          { name: "b", in: "path", required: true, style: "matrix", schema: { type: "string" } },
        ],
        requestBody: {
          content: {
            "multipart/form-data": {
              schema: { type: "object", properties: { note: { type: "string" }, n: { type: "integer" } } },
            },
          },
        },
        responses: ok,
      },
    },
  });
  const [up] = await openapiTools(doc, { baseUrl: echo.url });
  const e = (await up!({ a: ["x", "y"], b: "z", note: "hi", n: 2 })) as any;
  expect(e.structuredContent.path).toBe("/v1/up/.x.y/;b=z");
  expect(e.structuredContent.headers["content-type"]).toStartWith("multipart/form-data; boundary=");
  expect(e.structuredContent.body).toContain('name="note"\r\n\r\nhi');
});

test("$refs to other files are bundled; network $refs and URL documents only with allowNetwork and an allowed host", async () => {
  const dir = `${import.meta.dir}/../../.test-build/openapi-refs`;
  const main = (ref: string) => `openapi: 3.0.3
info: { title: refs, version: "1" }
servers: [{ url: "http://refs.invalid" }]
paths:
  /tree:
    post:
      operationId: plant
      parameters: [{ $ref: "${ref}#/components/parameters/Depth" }]
      requestBody:
        content: { application/json: { schema: { $ref: "${ref}#/components/schemas/Node" } } }
      responses: { "200": { description: ok } }
`;
  const common = `components:
  parameters:
    Depth: { name: depth, in: query, schema: { type: integer, nullable: true } }
  schemas:
    Node: { type: object, properties: { label: { type: string }, kids: { type: array, items: { $ref: "#/components/schemas/Node" } } } }
`;
  await Bun.write(`${dir}/main.yaml`, main("./common.yaml"));
  await Bun.write(`${dir}/common.yaml`, common);
  const [plant] = await openapiTools(`${dir}/main.yaml`);
  const s = plant!.inputSchema as any;
  expect(s.properties.depth.type).toEqual(["integer", "null"]);
  expect(s.properties.kids.items.$ref).toMatch(/^#\/\$defs\/Node/);

  let port = 0;
  const host = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req): Response =>
      new Response(
        new URL(req.url).pathname === "/common.yaml" ? common : main(`http://127.0.0.1:${port}/common.yaml`),
      ),
  });
  port = host.port!;
  try {
    const url = `http://127.0.0.1:${port}/main.yaml`;
    await expect(openapiTools(url)).rejects.toThrow(/needs allowNetwork: true/);
    await expect(openapiTools(url, { allowNetwork: true })).rejects.toThrow(
      /points to the network; network \$refs are read only with allowNetwork: true and the host in allowHosts/,
    );
    const [remote] = await openapiTools(url, { allowNetwork: true, allowHosts: [`127.0.0.1:${port}`] });
    expect(remote!.inputSchema).toEqual(plant!.inputSchema);
  } finally {
    host.stop(true);
  }
});
