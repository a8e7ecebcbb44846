// The showcase example, compiled and launched by absolute path, each tool called through the official SDK v1 client.
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { gunzipSync, inflateSync } from "node:zlib";
import { compileFixture } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";

let client: Client;
type Block = Record<string, any>;
/** Every response the SDK received, checked against the official schema of the negotiated version. */
const violations: string[] = [];
let checked = 0;

/** Wraps a transport so each response is schema-checked before the SDK sees it. */
function validating(transport: StdioClientTransport): StdioClientTransport {
  type Message = Record<string, any>;
  type Handler = (msg: Message, ...rest: unknown[]) => void;
  const methods = new Map<unknown, string>();
  let version = "";
  const send = transport.send.bind(transport) as (msg: Message, ...rest: unknown[]) => Promise<void>;
  (transport as { send: unknown }).send = (msg: Message, ...rest: unknown[]) => {
    if ("method" in msg && "id" in msg) methods.set(msg.id, msg.method);
    return send(msg, ...rest);
  };
  let handler: Handler | undefined;
  Object.defineProperty(transport, "onmessage", {
    get: () => handler,
    set: (h: Handler | undefined) => {
      handler = (msg, ...rest) => {
        const method = "id" in msg ? methods.get(msg.id) : undefined;
        if (method !== undefined) {
          if (method === "initialize" && "result" in msg)
            version = (msg.result as { protocolVersion: string }).protocolVersion;
          try {
            assertValidResponse(version, method, msg as never);
            checked++;
          } catch (e) {
            violations.push(String(e));
          }
        }
        h?.(msg, ...rest);
      };
    },
  });
  return transport;
}

beforeAll(async () => {
  const bin = await compileFixture("examples/showcase/server.ts", "showcase");
  client = new Client({ name: "showcase-test", version: "1.0.0" });
  await client.connect(validating(new StdioClientTransport({ command: bin, args: [], stderr: "pipe" })));
  // Listing first lets the SDK check every structuredContent against the advertised outputSchema.
  await client.listTools();
}, 120_000); // compiling takes seconds on a busy 2-core machine; the hook default is 5 s
afterAll(async () => {
  await client?.close();
});
// Each test on its own (any order, any subset): the responses it received were checked, and valid
// under the official schema of the negotiated version.
let checkedBefore = 0;
beforeEach(() => {
  checkedBefore = checked;
});
afterEach(() => {
  expect(violations.splice(0)).toEqual([]);
  expect(checked).toBeGreaterThan(checkedBefore);
});

const call = async (name: string, args: Record<string, unknown>) => {
  const r = await client.callTool({ name, arguments: args });
  return r as {
    content: Block[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
    _meta?: Record<string, unknown>;
  };
};

test("tools/list: every tool, with output schemas for the structured ones", async () => {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual([
    "color_swatch",
    "tone",
    "spec_links",
    "export_note",
    "word_stats",
    "parse_semver",
  ]);
  const byName = new Map(tools.map((t) => [t.name, t]));
  expect(byName.get("word_stats")!.outputSchema).toMatchObject({
    type: "object",
    required: ["words", "longest", "top"],
  });
  expect(byName.get("parse_semver")!.outputSchema).toMatchObject({ type: "object", additionalProperties: false });
  expect(byName.get("color_swatch")!.inputSchema).toEqual({
    type: "object",
    properties: {
      hex: { type: "string", pattern: "^#?[0-9a-fA-F]{6}$" },
      size: { type: "integer", minimum: 1, maximum: 64, default: 16 },
    },
    required: ["hex"],
  });
});

test("color_swatch: an image block holding a real PNG of the colour, with annotations", async () => {
  const r = await call("color_swatch", { hex: "#3366ff", size: 2 });
  const [image, caption] = r.content;
  expect(image).toMatchObject({
    type: "image",
    mimeType: "image/png",
    annotations: { audience: ["user", "assistant"], priority: 1 },
  });
  expect(image!.data).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
  const png = Buffer.from(image!.data, "base64");
  expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2, 2]);
  const idatLength = png.readUInt32BE(33);
  const pixels = inflateSync(png.subarray(41, 41 + idatLength));
  expect([...pixels.subarray(0, 7)]).toEqual([0, 0x33, 0x66, 0xff, 0x33, 0x66, 0xff]);
  expect(caption).toEqual({ type: "text", text: "2×2 swatch of #3366ff", annotations: { audience: ["user"] } });
});

test("tone: an audio block with plain base64 WAV data and a result _meta", async () => {
  const r = await call("tone", { frequency: 440, ms: 10 });
  expect(r.content).toHaveLength(1);
  expect(r.content[0]).toMatchObject({ type: "audio", mimeType: "audio/wav" });
  const wav = Buffer.from(r.content[0]!.data, "base64");
  expect(wav.subarray(0, 4).toString()).toBe("RIFF");
  expect(wav.subarray(8, 12).toString()).toBe("WAVE");
  expect(wav.length).toBe(44 + 80 * 2);
  expect(r._meta?.["example.com/tone"]).toEqual({ frequency: 440, ms: 10, sampleRate: 8000 });
});

test("spec_links: resource_link blocks with block _meta; no match is an isError result", async () => {
  const r = await call("spec_links", { query: "li" });
  expect(r.content).toEqual([
    {
      type: "resource_link",
      uri: "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle",
      name: "lifecycle",
      title: "Lifecycle",
      mimeType: "text/html",
      _meta: { "example.com/section": "lifecycle" },
    },
  ]);
  expect((await call("spec_links", {})).content).toHaveLength(3);
  const none = await call("spec_links", { query: "zzz" });
  expect(none.isError).toBe(true);
  expect(none.content[0]!.text).toBe('No specification page about "zzz".');
});

test("export_note: embedded resources as text with annotations and as a gzipped blob", async () => {
  const r = await call("export_note", { title: "Groceries", body: "eggs" });
  const [text, blob] = r.content;
  expect(text).toEqual({
    type: "resource",
    resource: { uri: "note:///Groceries", mimeType: "text/markdown", text: "# Groceries\n\neggs\n" },
    annotations: { audience: ["assistant"], priority: 0.8, lastModified: "1970-01-01T00:00:00.000Z" },
  });
  expect(blob).toMatchObject({
    type: "resource",
    resource: { uri: "note:///Groceries.gz", mimeType: "application/gzip" },
    _meta: { "example.com/bytes": 18 },
  });
  expect(gunzipSync(Buffer.from(blob!.resource.blob, "base64")).toString()).toBe("# Groceries\n\neggs\n");
});

test("word_stats: valibot output → structuredContent plus its JSON text (checked by the SDK against outputSchema)", async () => {
  const r = await call("word_stats", { text: "To be, or not to be" });
  const expected = {
    words: 6,
    longest: "not",
    top: [
      { word: "be", count: 2 },
      { word: "to", count: 2 },
      { word: "not", count: 1 },
    ],
  };
  expect(r.structuredContent).toEqual(expected);
  expect(r.content).toHaveLength(1);
  expect(JSON.parse(r.content[0]!.text)).toEqual(expected);
  expect((await call("word_stats", { text: "" })).structuredContent).toEqual({ words: 0, longest: null, top: [] });
});

test("parse_semver: raw outputSchema, its own text block kept, _meta sent; a bad version is an isError result", async () => {
  const r = await call("parse_semver", { version: "v1.2.3-rc.1+build.5" });
  expect(r.structuredContent).toEqual({ major: 1, minor: 2, patch: 3, prerelease: ["rc", "1"], build: ["build", "5"] });
  expect(r.content).toEqual([{ type: "text", text: "major 1, minor 2, patch 3" }]);
  expect(r._meta?.["example.com/input"]).toBe("v1.2.3-rc.1+build.5");
  const bad = await call("parse_semver", { version: "1.2" });
  expect(bad.isError).toBe(true);
  expect(bad.structuredContent).toBeUndefined();
  expect(bad.content[0]!.text).toBe('"1.2" is not a semantic version (MAJOR.MINOR.PATCH)');
});

test("ping: an empty result", async () => {
  expect(await client.ping()).toEqual({});
});
