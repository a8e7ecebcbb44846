// Lossless definitions (issue 32): a tool, resource, template or prompt another server lists is re-served with every
// field it has (title, annotations and icons with keys of their own, outputSchema, _meta, execution, a future
// `x_future`), only its name (and URI) ours, while each client gets what its protocol version defines: fields a
// version lacks are left out for it, fields no version defines go to every one. Through `mcpbin proxy` and through
// a server of one's own (upstreamTools(), transformTool(), the `upstreams` option, mount()), driven line by line at
// 2025-11-25, 2025-03-26 and 2026-07-28 against a hand-written upstream (test/fixtures/upstreams/lossless.ts).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUN, META, McpProcess, ROOT } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";
import { DEFINITIONS } from "../fixtures/upstreams/lossless.ts";

type Obj = Record<string, any>;
const MCPBIN = resolve(ROOT, "bin/mcpbin.ts");
const LOSSLESS = resolve(ROOT, "test/fixtures/upstreams/lossless.ts");
const LISTS = [
  ["tools/list", "tools"],
  ["resources/list", "resources"],
  ["resources/templates/list", "resourceTemplates"],
  ["prompts/list", "prompts"],
] as const;
let servers: string;
const procs: McpProcess[] = [];

beforeAll(() => {
  servers = join(mkdtempSync(join(tmpdir(), "mcpbin-lossless-")), "servers.json");
  writeFileSync(servers, JSON.stringify({ mcpServers: { lossless: { command: BUN, args: [LOSSLESS] } } }));
});
afterAll(() => {
  for (const p of procs) p.kill();
});

/** A copy of `o` without these fields. */
const without = (o: Obj, ...keys: string[]): Obj =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
const def = (list: string, name: string): Obj => DEFINITIONS[list].find((d: Obj) => d.name === name);

/** The definition as a version defines it: what each version lacks left out, the rest (`x_future` too) kept. */
function projected(list: string, d: Obj, version: string): Obj {
  const lacks: string[] = [];
  if (version < "2025-06-18") lacks.push("title", "outputSchema", "_meta");
  if (version < "2025-11-25") lacks.push("icons");
  if (version !== "2025-11-25") lacks.push("execution");
  if (version < "2025-03-26" && list === "tools") lacks.push("annotations");
  const out = without(d, ...lacks);
  if (version < "2025-06-18" && out.annotations?.lastModified !== undefined)
    out.annotations = without(out.annotations, "lastModified");
  if (version < "2025-06-18" && out.arguments) out.arguments = out.arguments.map((a: Obj) => without(a, "title"));
  return out;
}

/** The capabilities each server's handshake declared, by the lists {@link lists} returned. */
const capabilities = new WeakMap<object, Obj | undefined>();

/** Every list of a server, at one version (initialize, or 2026-07-28 with the `_meta` claim on each request). */
async function lists(p: McpProcess, version: string): Promise<Record<string, Obj[]>> {
  const modern = version === "2026-07-28";
  const init = modern ? undefined : await p.handshake(version);
  const out: Record<string, Obj[]> = {};
  capabilities.set(out, init?.capabilities);
  let id = 10;
  for (const [method, key] of LISTS) {
    const r = await p.request(method, modern ? { _meta: META } : {}, id++);
    // Valid for the version (its fields as it defines them; fields no version defines are allowed extras).
    assertValidResponse(version, method, r, { open: true });
    out[key] = r.result[key];
  }
  return out;
}

const proxy = (): McpProcess => {
  const p = new McpProcess([BUN, MCPBIN, "proxy", "--servers", servers]);
  procs.push(p);
  return p;
};
const front = (): McpProcess => {
  const p = McpProcess.source("test/fixtures/servers/lossless-front.ts");
  procs.push(p);
  return p;
};

for (const version of ["2025-11-25", "2025-03-26", "2026-07-28"]) {
  test(`lossless definitions: mcpbin proxy re-serves every field of the upstream's tool, resource, template and prompt, projected for ${version}`, async () => {
    const got = await lists(proxy(), version);
    for (const [, key] of LISTS) {
      const want = DEFINITIONS[key].filter((d: Obj) => d.name !== "proto").map((d: Obj) => projected(key, d, version));
      expect(got[key]!.filter((d) => d.name !== "proto")).toEqual(want);
    }
  }, 30_000);
}

test("lossless definitions: a received __proto__ field stays a plain field (no prototype is changed)", async () => {
  const p = proxy();
  const got = await lists(p, "2025-11-25");
  for (const list of [got.tools!, got.resources!]) {
    const proto = list.find((t) => t.name === "proto")!;
    expect(Object.hasOwn(proto, "__proto__")).toBe(true);
    expect(proto["__proto__"]).toEqual({ polluted: true });
  }
  expect(p.lines.filter((l) => l.includes('"__proto__":{"polluted":true}')).length).toBe(2);
  expect(({} as Obj).polluted).toBeUndefined();
}, 30_000);

for (const version of ["2025-11-25", "2025-03-26"]) {
  test(`lossless definitions: upstreamTools(), transformTool(), the upstreams option and mount() keep every field, projected for ${version}`, async () => {
    const got = await lists(front(), version);
    const full = projected("tools", def("tools", "full"), version);
    const byName = new Map(got.tools!.map((t) => [t.name, t]));
    // upstreamTools(): only the name is ours.
    expect(byName.get("up__full")).toEqual({ ...full, name: "up__full" });
    // transformTool(): the name and what the transform changes.
    expect(byName.get("renamed")).toEqual({ ...full, name: "renamed", description: "changed by the transform" });
    // The upstreams option (prefixed names, URIs made ours), and mount() of a server that fronts the upstream itself.
    expect(byName.get("hub__full")).toEqual({ ...full, name: "hub__full" });
    // The mounted server, reached in memory, declares tasks (it has upstreams), so `execution` comes through both
    // hops like every other field; and this server's capabilities agree with the tools it lists.
    expect(byName.get("m__full")).toEqual({ ...full, name: "m__full" });
    expect(got.tools!.some((t) => t.execution?.taskSupport !== undefined)).toBe(version === "2025-11-25");
    expect(capabilities.get(got)?.tasks !== undefined).toBe(version === "2025-11-25");
    for (const [, key] of LISTS.slice(1)) {
      const want = DEFINITIONS[key]
        .filter((d: Obj) => d.name !== "proto")
        .map((d: Obj) => without(projected(key, d, version), "uri", "uriTemplate", "name"));
      const mine = got[key]!.filter((d) => d.name !== "proto").map((d) => without(d, "uri", "uriTemplate", "name"));
      expect(mine).toEqual([...want, ...want]);
    }
    expect(got.prompts!.map((p) => p.name)).toEqual(["hub__greet", "m__greet"]);
  }, 30_000);
}
