// Projection onto the version in force (issue 3): tool fields and call results per version, checked against each official schema.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { McpProcess, META } from "../helpers/proc.ts";
import { assertValidNotification } from "../helpers/schema.ts";

const FIXTURE = "test/fixtures/servers/fixture.ts";
const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
type Version = (typeof VERSIONS)[number];
const MODERN = "2026-07-28";

// One process per version; the modern one never sends initialize.
const procs = new Map<Version, McpProcess>();
let nextId = 100;
beforeAll(async () => {
  await Promise.all(
    VERSIONS.map(async (v) => {
      const p = McpProcess.source(FIXTURE);
      procs.set(v, p);
      if (v !== MODERN) await p.handshake(v);
    }),
  );
}, 60_000); // a hook times out after 5 s whatever bunfig says; builds take longer under load
afterAll(() => {
  for (const p of procs.values()) p.kill();
});

/** Sends a request in the version's era; the response is validated (strictly) against that version's schema. */
async function req(v: Version, method: string, params: Record<string, unknown> = {}) {
  const p = procs.get(v)!;
  const r = await p.request(method, v === MODERN ? { ...params, _meta: META } : params, nextId++, v);
  return r;
}
const byName = async (v: Version) =>
  new Map<string, Record<string, unknown>>(
    (await req(v, "tools/list")).result.tools.map((t: { name: string }) => [t.name, t]),
  );
const call = async (v: Version, name: string) => (await req(v, "tools/call", { name, arguments: {} })).result;
const since = (v: Version, min: Version) => v >= min;

describe("tools/list", () => {
  for (const v of VERSIONS) {
    test(`${v}: Tool fields only where the schema defines them`, async () => {
      const tools = await byName(v);
      const rich = tools.get("proto_rich")!;
      const expected = ["name", "description", "inputSchema"];
      if (since(v, "2025-03-26")) expected.push("annotations");
      if (since(v, "2025-06-18")) expected.push("title", "outputSchema", "_meta");
      if (since(v, "2025-11-25")) expected.push("icons");
      expect(Object.keys(rich).sort()).toEqual(expected.sort());
      if (since(v, "2025-03-26"))
        expect(rich.annotations).toEqual({ title: "Rich (annotation)", readOnlyHint: true, openWorldHint: false });
      if (since(v, "2025-06-18")) expect(rich.title).toBe("Rich tool");
      if (since(v, "2025-11-25"))
        expect(rich.icons).toEqual([
          { src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48"], theme: "light" },
        ]);
      // A tool whose output schema has an array root stays listed; the schema is sent only where it is representable.
      const list = tools.get("proto_list")!;
      expect(list).toBeDefined();
      expect("outputSchema" in list).toBe(v === MODERN);
      if (v === MODERN) expect((list.outputSchema as { type: string }).type).toBe("array");
      // Object output schemas are sent from 2025-06-18 on.
      expect("outputSchema" in tools.get("weather")!).toBe(since(v, "2025-06-18"));
    });
  }
});

describe("tools/call", () => {
  for (const v of VERSIONS) {
    test(`${v}: content blocks, annotations, _meta and structuredContent only where the schema defines them`, async () => {
      const r = await call(v, "proto_rich");
      const newer = since(v, "2025-06-18");
      const text: Record<string, unknown> = {
        type: "text",
        text: '{"n":1}',
        annotations: { audience: ["user"], priority: 0.5 },
      };
      if (newer) {
        (text.annotations as Record<string, unknown>).lastModified = "2025-01-01T00:00:00Z";
        text._meta = { "example.com/block": 1 };
      }
      const resource: Record<string, unknown> = {
        type: "resource",
        resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "notes" },
      };
      if (newer) resource._meta = { "example.com/res": 1 };
      expect(r.content).toEqual([
        text,
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png", annotations: { priority: 1 } },
        resource,
      ]);
      if (newer) expect(r.structuredContent).toEqual({ n: 1 });
      else expect("structuredContent" in r).toBe(false);
      expect(r._meta["example.com/result"]).toBe(1);
      expect(r.isError).toBeUndefined();
    });

    test(`${v}: audio and resource_link turn into an isError result naming them where the version cannot carry them`, async () => {
      const audio = await call(v, "proto_audio");
      const link = await call(v, "proto_link");
      const mixed = await call(v, "proto_mixed");
      const unsupported = (r: Record<string, any>, types: string) => {
        expect(r.isError).toBe(true);
        expect(r.content).toHaveLength(1);
        expect(r.content[0].type).toBe("text");
        expect(r.content[0].text).toContain(`${types} content`);
        expect(r.content[0].text).toContain(v);
      };
      if (since(v, "2025-03-26"))
        expect(audio.content[1]).toEqual({ type: "audio", data: "UklGRg==", mimeType: "audio/wav" });
      else unsupported(audio, "audio");
      if (since(v, "2025-06-18")) {
        expect(link.content[1]).toEqual({
          type: "resource_link",
          uri: "https://example.com/report.pdf",
          name: "report",
          title: "Report",
          mimeType: "application/pdf",
          size: 1024,
        });
        expect(mixed.content.map((b: { type: string }) => b.type)).toEqual(["audio", "resource_link"]);
      } else {
        unsupported(link, "resource_link");
        unsupported(mixed, v === "2024-11-05" ? "audio and resource_link" : "resource_link");
      }
    });

    test(`${v}: structured content with an array root is sent only where the schema allows it; the text stays`, async () => {
      const r = await call(v, "proto_list");
      expect(r.content).toEqual([{ type: "text", text: "[1,2,3]" }]);
      if (v === MODERN) expect(r.structuredContent).toEqual([1, 2, 3]);
      else expect("structuredContent" in r).toBe(false);
    });
  }
});

describe("notifications/progress", () => {
  for (const v of VERSIONS) {
    test(`${v}: progress notifications are valid for the version; message only from 2025-03-26`, async () => {
      const p = procs.get(v)!;
      const token = `tok-${v}`;
      const meta = v === MODERN ? { ...META, progressToken: token } : { progressToken: token };
      const r = await p.request("tools/call", { name: "progress", arguments: {}, _meta: meta }, nextId++, v);
      expect(r.result.content[0].text).toBe("done");
      const notes = p.messages.filter((m) => m.method === "notifications/progress" && m.params.progressToken === token);
      expect(notes.map((n) => n.params.progress)).toEqual([1, 2, 3]);
      for (const n of notes) {
        assertValidNotification(v, "ProgressNotification", n);
        expect("message" in n.params).toBe(since(v, "2025-03-26"));
      }
    });
  }
});
