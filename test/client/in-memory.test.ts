// connect(server) (issue 21): the client over an in-memory pair, through the real pipeline (middleware,
// context, a live tool set), no process; it picks the era like a real client, or is told.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { connect, createServer, maskErrors, tool, type ClientTransport, type Middleware } from "../../src/index.ts";
import { inMemoryTransport } from "../../src/client/in-memory.ts";
import { assertValidResponse } from "../helpers/schema.ts";

/** Wraps a transport so every response is validated against the official schema of its request's version. */
function validating(t: ClientTransport, seen: string[]): ClientTransport {
  const sent = new Map<unknown, { method: string; claim?: string }>();
  let negotiated = "2025-11-25";
  return {
    label: t.label,
    start: (sink) =>
      t.start({
        line(text) {
          const m = JSON.parse(text);
          const req = sent.get(m.id);
          if (req && ("result" in m || "error" in m)) {
            if (req.method === "initialize") negotiated = m.result?.protocolVersion ?? negotiated;
            assertValidResponse(req.claim ?? negotiated, req.method, m);
            seen.push(req.method);
          }
          sink.line(text);
        },
        closed: (e) => sink.closed(e),
      }),
    send(line) {
      const m = JSON.parse(line);
      if (m.id !== undefined && m.method)
        sent.set(m.id, { method: m.method, claim: m.params?._meta?.["io.modelcontextprotocol/protocolVersion"] });
      return t.send(line);
    },
    close: () => t.close(),
  };
}

function hub() {
  const seen: string[] = [];
  const log: Middleware = async (request, next) => {
    seen.push(`${request.method} ${request.ctx.client.name ?? "?"}`);
    return next(request);
  };
  const search = tool({
    name: "search",
    description: "finds",
    input: v.object({ q: v.string() }),
    run: ({ q }, ctx) => `${q} for ${ctx.client?.name} (${ctx.protocolVersion})`,
  });
  const boom = tool({
    name: "boom",
    description: "fails",
    run: () => {
      throw new Error("secret");
    },
  });
  return {
    server: createServer({
      name: "hub",
      version: "1.0.0",
      tools: [search, boom],
      listChanged: true,
      middleware: [log, maskErrors()],
    }),
    seen,
  };
}

for (const era of ["auto", "modern", "legacy"] as const) {
  test(`connect(server) era ${era}: tools through middleware, ctx.client, maskErrors`, async () => {
    const { server, seen } = hub();
    const valid: string[] = [];
    const c = await connect(era === "auto" ? server : validating(inMemoryTransport(server), valid), {
      era,
      clientInfo: { name: "test-client", version: "1" },
    });
    try {
      expect(c.era).toBe(era === "legacy" ? "legacy" : "modern");
      expect((await c.listTools()).map((t) => t.name)).toEqual(["search", "boom"]);
      const r = await c.callTool("search", { q: "x" });
      expect((r.content as { text: string }[])[0]!.text).toBe(
        `x for test-client (${era === "legacy" ? "2025-11-25" : "2026-07-28"})`,
      );
      expect(((await c.callTool("boom")).content as { text: string }[])[0]!.text).toBe(
        "Tool boom failed: internal error",
      );
      expect(seen).toContain("tools/call test-client");
      if (era !== "auto") expect(valid.filter((m) => m === "tools/call")).toHaveLength(2); // each response valid for its version
    } finally {
      await c.close();
    }
  });
}

test("connect(server), legacy: addTool reaches the client as list_changed; two clients share nothing but the server", async () => {
  const { server } = hub();
  let told!: () => void;
  const changed = new Promise<void>((resolve) => (told = resolve));
  const a = await connect(server, {
    era: "legacy",
    clientInfo: { name: "a", version: "1" },
    onNotification: (m) => m === "notifications/tools/list_changed" && told(),
  });
  const b = await connect(server, { era: "legacy", clientInfo: { name: "b", version: "1" } });
  try {
    server.addTool(tool({ name: "late", description: "added", run: () => "late" }));
    await changed;
    expect((await a.listTools()).map((t) => t.name)).toContain("late");
    expect(((await b.callTool("search", { q: "y" })).content as { text: string }[])[0]!.text).toBe(
      "y for b (2025-11-25)",
    );
  } finally {
    await a.close();
    await b.close();
  }
});
