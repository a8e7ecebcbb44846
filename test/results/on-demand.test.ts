// A compiled server evaluates at start only what a stdio tools server needs: code behind an option or a first use
// (the client behind connect()/upstreamTools(), the HTTP transport, the token verifier, the OpenTelemetry SDK, the
// OpenAPI loader, Ajv, Node's fs/path/url) is loaded then (docs/benchmarks.md, "Start-up of the smallest server").
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { compileFixture, McpProcess, ROOT } from "../helpers/proc.ts";

/** A string of each lazily loaded module that survives minifying (a message), read from the source so that it cannot go stale unnoticed. */
function marker(file: string, text: string): string {
  expect(readFileSync(resolve(ROOT, file), "utf8")).toContain(text);
  return text;
}
const CLIENT = marker("src/client/handshake.ts", "which this client does not speak");
/** The token verifier's (it imports jose and oauth4webapi): loaded on the first bearer token an `http.auth` endpoint checks. */
/** The Streamable HTTP transport's: loaded by `--http` and by mcpHandler(), never by a stdio server. */
const HTTP = marker("src/transport/http-guard.ts", "the Host header is missing");
const VERIFIER = marker("src/auth/verify.ts", "the token is not a well-formed JWT");

/** The OpenTelemetry SDK's (sdk-trace): loaded when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT or a registered provider). */
const OTEL_SDK = marker(
  "node_modules/@opentelemetry/sdk-trace/dist/export/BatchSpanProcessorBase.cjs",
  "BatchSpanProcessor: span export failed",
);
/** The OpenAPI loader's: loaded by openapiTools(). */
const OPENAPI = marker("src/openapi/document.ts", "convert it to 3.x first, e.g. with swagger2openapi");
/** Ajv's: loaded for a raw JSON Schema that the build did not compile into a validator. */
const AJV = marker("node_modules/ajv/dist/core.js", "`validateFormats: false` can be used instead.");

/** yaml's: the skills scan's parser, left out of an executable (which reads the manifest its build recorded); the client imports it. */
const YAML = marker("node_modules/yaml/dist/compose/resolve-block-map.js", "Map keys must be unique");

let bin: string;
const procs: McpProcess[] = [];
beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/on-demand.ts", "on-demand");
}, 120_000); // compiling takes seconds on a busy 2-core machine
afterAll(() => {
  for (const p of procs) p.kill();
});

type Probe = { found: string[]; builtins: string[]; modules: number };
async function probe(p: McpProcess, id: number, markers: string[]): Promise<Probe> {
  const r = (await p.request("tools/call", { name: "probe", arguments: { markers } }, id)).result as {
    structuredContent?: Probe;
    content: { text: string }[];
  };
  return r.structuredContent ?? (JSON.parse(r.content[0]!.text) as Probe);
}

test("the client's code is not evaluated at start; connect() and upstreamTools() load it on first use", async () => {
  const p = new McpProcess([bin]);
  procs.push(p);
  await p.handshake();
  const before = await probe(p, 2, [CLIENT]);
  expect(before.modules).toBeGreaterThan(0); // the probe reads the evaluated code (else it could never find a marker)
  expect(before.found).toEqual([]);
  const used = (await p.request("tools/call", { name: "use_client", arguments: {} }, 3)).result as {
    isError?: boolean;
    content: { text: string }[];
  };
  expect(used.isError).toBeUndefined();
  expect(used.content[0]!.text).toBe("echo");
  expect((await probe(p, 4, [CLIENT])).found).toEqual([CLIENT]);
  expect(p.stderr).toBe("");
}, 30_000);

test("no module evaluated at start imports a Node built-in statically (fs, path, url, crypto, …); one loaded later does, and the probe sees it", async () => {
  const p = new McpProcess([bin]);
  procs.push(p);
  await p.handshake();
  const before = await probe(p, 2, []);
  expect(before.modules).toBeGreaterThan(0);
  expect(before.builtins).toEqual([]);
  const read = (await p.request("tools/call", { name: "read_self", arguments: {} }, 3)).result as {
    content: { text: string }[];
  };
  expect(read.content[0]!.text).toBe("7f454c46");
  expect((await probe(p, 4, [])).builtins).toEqual(["fs"]);
  expect(p.stderr).toBe("");
}, 30_000);

test("neither the HTTP transport nor the token verifier (jose, oauth4webapi) is evaluated at start of a stdio server", async () => {
  const p = new McpProcess([bin]);
  procs.push(p);
  await p.handshake();
  const before = await probe(p, 2, [HTTP, VERIFIER]);
  expect(before.modules).toBeGreaterThan(0);
  expect(before.found).toEqual([]);
  expect(p.stderr).toBe("");
}, 30_000);

test("neither the OpenTelemetry SDK, the OpenAPI loader, ajv nor yaml is in the code a stdio server with raw JSON Schema tools evaluates at start", async () => {
  const p = new McpProcess([bin]);
  procs.push(p);
  await p.handshake();
  const before = await probe(p, 2, [OTEL_SDK, OPENAPI, AJV, YAML]);
  expect(before.modules).toBeGreaterThan(0);
  expect(before.found).toEqual([]);
  expect(p.stderr).toBe("");
}, 30_000);
