// Attacks against the executable `mcpbin openapi` builds, driven by the official SDK client: a call reaches only
// the operation it names. A dot-segment path value never reaches another route, a redirect to an origin not
// listed (--redirect-origin) is not followed, a listed one gets no credential, and --max-redirects stops a loop.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mcpbin } from "../cli/run-cli.ts";
import { validatingStdioClient } from "./validating-stdio.ts";

setDefaultTimeout(60_000);

/** A loopback server recording every request (path, query, headers); `route` answers, default JSON `{ at }`. */
function recorder(route: (u: URL) => Response | undefined = () => undefined) {
  const hits: { url: string; headers: Record<string, string> }[] = [];
  const s = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const u = new URL(req.url);
      hits.push({ url: u.pathname + u.search, headers: Object.fromEntries(req.headers) });
      return route(u) ?? Response.json({ at: u.pathname });
    },
  });
  return { hits, origin: `http://127.0.0.1:${s.port}`, stop: () => void s.stop(true) };
}
const listed = recorder();
const unlisted = recorder();
const api = recorder((u) => {
  const to = (location: string) => new Response(null, { status: 302, headers: { location } });
  if (u.pathname === "/meta") return new Response("admin-only metadata", { status: 200 });
  if (u.pathname === "/go") return to(`${listed.origin}/landing?${u.search.slice(1)}`);
  if (u.pathname === "/elsewhere") return to(`${unlisted.origin}/steal`);
  if (u.pathname === "/loop") return to("/loop");
  return undefined;
});

const get = (operationId: string, parameters: unknown[] = []) => ({
  get: { operationId, parameters, security: [{ key: [], q: [] }], responses: { 200: { description: "ok" } } },
});
const DOC = {
  openapi: "3.1.0",
  info: { title: "steer", version: "1.0.0" },
  paths: {
    "/files/{id}/meta": get("get_file_meta", [{ name: "id", in: "path", required: true, schema: { type: "string" } }]),
    "/go": get("go"),
    "/elsewhere": get("elsewhere"),
    "/loop": get("loop"),
  },
  components: {
    securitySchemes: {
      key: { type: "apiKey", in: "header", name: "X-API-Key" },
      q: { type: "apiKey", in: "query", name: "key" },
    },
  },
};

let bin: string;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcpbin-steer-"));
  writeFileSync(join(dir, "steer.json"), JSON.stringify(DOC));
  bin = join(dir, "steer");
  const r = await mcpbin([
    "openapi",
    join(dir, "steer.json"),
    "--base-url",
    api.origin,
    "--outfile",
    bin,
    "--redirect-origin",
    listed.origin,
    "--max-redirects",
    "2",
  ]);
  if (r.code !== 0) throw new Error(r.stderr);
}, 120_000);
afterAll(() => {
  for (const s of [api, listed, unlisted]) s.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("the built OpenAPI executable: no call is steered to another route or origin, and no credential leaves the API's origin", async () => {
  const { client } = await validatingStdioClient(bin, [], { API_KEY_KEY: "K-SECRET", API_KEY_Q: "Q-SECRET" });
  try {
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    for (const id of ["..", "."]) expect((await call("get_file_meta", { id })).isError).toBe(true);
    expect(api.hits.map((h) => h.url)).toEqual([]);

    expect((await call("go")).isError).toBeUndefined();
    expect(listed.hits.length).toBe(1);
    expect(JSON.stringify(listed.hits)).not.toMatch(/[KQ]-SECRET/);
    expect(api.hits[0]!.headers["x-api-key"]).toBe("K-SECRET");

    const away = await call("elsewhere");
    expect(away.isError).toBe(true);
    expect(away.content[0]!.text).toContain(unlisted.origin);
    expect(unlisted.hits).toEqual([]);

    api.hits.length = 0;
    expect((await call("loop")).content[0]!.text).toContain("maxRedirects");
    expect(api.hits.length).toBe(3);
  } finally {
    await client.close();
  }
});
