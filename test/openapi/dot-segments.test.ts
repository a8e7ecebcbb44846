// A call reaches only the operation it names: an argument that would become a dot segment ("." or "..") or an
// empty segment of the URL path is refused with an isError result naming the parameter, whatever the style.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openapiTools, type Tool } from "../../src/index.ts";

const seen: string[] = [];
let server: ReturnType<typeof Bun.serve>;
let tools: Tool[];
let dynamic: Tool[];

const param = (name: string, style?: string) => ({
  name,
  in: "path",
  required: true,
  schema: { type: "string" },
  ...(style ? { style } : {}),
});
const DOC = {
  openapi: "3.1.0",
  info: { title: "files", version: "1" },
  paths: {
    "/files/{id}/meta": {
      get: { operationId: "get_file_meta", parameters: [param("id")], responses: { 200: { description: "ok" } } },
    },
    "/meta": { get: { operationId: "admin_meta", responses: { 200: { description: "ok" } } } },
    "/files/meta": { get: { operationId: "files_meta", responses: { 200: { description: "ok" } } } },
    "/labels/{id}": {
      get: { operationId: "get_label", parameters: [param("id", "label")], responses: { 200: { description: "ok" } } },
    },
    "/files/{dir}{name}": {
      get: {
        operationId: "get_joined",
        parameters: [param("dir"), param("name")],
        responses: { 200: { description: "ok" } },
      },
    },
    "/files/{id}": {
      get: { operationId: "get_file", parameters: [param("id")], responses: { 200: { description: "ok" } } },
    },
  },
};

beforeAll(async () => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const u = req.url.slice(req.url.indexOf("/", 8));
      seen.push(u);
      return Response.json({ reached: u });
    },
  });
  const base = `http://127.0.0.1:${server.port}`;
  tools = await openapiTools(DOC, { baseUrl: base, include: ["get_*"] }); // admin_meta and files_meta are not tools
  dynamic = await openapiTools(DOC, { baseUrl: base, include: ["get_*"], mode: "dynamic" });
});
afterAll(() => void server.stop(true));

async function call(name: string, args: Record<string, unknown>) {
  seen.length = 0;
  const r = (await tools.find((t) => t.name === name)!(args)) as { isError?: boolean; content: { text: string }[] };
  return { isError: r.isError === true, text: r.content[0]!.text, seen: [...seen] };
}

test("dot segments in path parameters: '..' and '.' never reach another route", async () => {
  expect((await call("get_file_meta", { id: "report" })).seen).toEqual(["/files/report/meta"]);
  for (const id of ["..", "."]) {
    const r = await call("get_file_meta", { id });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('"id"');
    expect(r.seen).toEqual([]); // neither GET /meta nor GET /files/meta was sent
  }
});

test("dot segments in path parameters: a label-style value and values joined in one segment are checked as the segment they make", async () => {
  for (const [name, args] of [
    ["get_label", { id: "." }], // label style: ".." + "." = ".."
    ["get_joined", { dir: ".", name: "." }],
    ["get_joined", { dir: "", name: ".." }],
  ] as const) {
    const r = await call(name, args);
    expect(r.isError).toBe(true);
    expect(r.seen).toEqual([]);
  }
  expect((await call("get_joined", { dir: "a.", name: "." })).seen).toEqual(["/files/a.."]);
});

test("dot segments in path parameters: an empty value (the parent route) is refused; other dots and slashes stay text", async () => {
  const empty = await call("get_file", { id: "" });
  expect(empty.isError).toBe(true);
  expect(empty.seen).toEqual([]);
  expect((await call("get_file", { id: "a.b/c" })).seen).toEqual(["/files/a.b%2Fc"]);
  expect((await call("get_file", { id: "..." })).seen).toEqual(["/files/..."]);
});

test("dot segments in path parameters: encoded dots, slashes and backslashes that make a dot segment for a server that decodes them are refused", async () => {
  // nginx and many frameworks decode %2F before routing, IIS takes \ for /, a gateway may decode twice.
  for (const id of [
    "%2e%2e",
    "%2E",
    ".%2e",
    "%252e%252e",
    "a/../b",
    "../../etc",
    "..\\x",
    "a\\..\\b",
    "..%2f",
    "..;x",
    "..\u0000",
    "．．",
  ]) {
    const r = await call("get_file_meta", { id });
    expect({ id, isError: r.isError }).toEqual({ id, isError: true });
    expect(r.text).toContain('"id"');
    expect(r.seen).toEqual([]);
  }
});

test("dot segments in path parameters: dynamic mode's call_operation is checked too", async () => {
  seen.length = 0;
  const callOp = dynamic.find((t) => t.name === "call_operation")!;
  const r = (await callOp({ name: "get_file_meta", arguments: { id: ".." } })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  expect(r.isError).toBe(true);
  expect(r.content[0]!.text).toContain('"id"');
  expect(seen).toEqual([]);
});
