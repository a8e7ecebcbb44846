// The resources, prompts, completion and logging methods over real pipes in every version: shapes per era, errors per era, pagination, subscriptions in both eras; every response and notification validated against its version's schema.json.
import { describe, expect, test } from "bun:test";
import { META, spawnPerTest } from "../helpers/proc.ts";
import { assertValidNotification } from "../helpers/schema.ts";
import { LEGACY_VERSIONS } from "../../src/protocol/versions.ts";

const FIXTURE = "test/fixtures/servers/content.ts";
const spawn = spawnPerTest(FIXTURE);
const MODERN = "2026-07-28";
const m = (extra: Record<string, unknown> = {}) => ({ ...extra, _meta: META });

describe("legacy versions", () => {
  for (const version of LEGACY_VERSIONS) {
    test(`${version}: every method, shapes of the version, not found -32002 with data.uri`, async () => {
      const p = spawn();
      const caps = (await p.handshake(version)).capabilities;
      expect(caps.resources).toEqual({ subscribe: true, listChanged: true });
      expect(caps.prompts).toEqual({});
      expect("completions" in caps).toBe(version !== "2024-11-05");
      let id = 10;
      const rq = (method: string, params?: unknown) => p.request(method, params, id++, version);
      const list = await rq("resources/list");
      const readme = list.result.resources[0];
      expect("title" in readme).toBe(version >= "2025-06-18");
      expect("icons" in readme).toBe(version >= "2025-11-25");
      expect("lastModified" in readme.annotations).toBe(version >= "2025-06-18");
      expect("ttlMs" in list.result || "resultType" in list.result).toBe(false);
      const templates = await rq("resources/templates/list");
      expect(templates.result.resourceTemplates[0].uriTemplate).toBe("notes:///{+path}");
      expect((await rq("resources/read", { uri: "docs://readme" })).result).toEqual({
        contents: [{ uri: "docs://readme", mimeType: "text/markdown", text: "# Hello" }],
      });
      const logo = await rq("resources/read", { uri: "img://logo" });
      expect(logo.result.contents[0].mimeType).toBe("image/png");
      expect(typeof logo.result.contents[0].blob).toBe("string");
      const missing = await rq("resources/read", { uri: "nope://x" });
      expect(missing.error).toEqual({
        code: -32002,
        message: "Resource not found: nope://x",
        data: { uri: "nope://x" },
      });
      expect((await rq("resources/read", { uri: "notes:///a/../../etc.txt" })).error.code).toBe(-32602);
      expect((await rq("resources/read", { uri: "notes:///a.md" })).error).toMatchObject({
        code: -32602,
        message: expect.stringContaining("must end in .txt"),
      });
      const broken = await rq("resources/read", { uri: "docs://broken" });
      expect(broken.error).toEqual({ code: -32603, message: "Reading docs://broken failed: the disk is on fire" });
      const prompts = await rq("prompts/list");
      expect(prompts.result.prompts[0]).toMatchObject({
        name: "review_code",
        arguments: [
          { name: "code", description: "The code to review", required: true },
          { name: "language", required: false },
        ],
      });
      expect("title" in prompts.result.prompts[0]).toBe(version >= "2025-06-18");
      const mixed = await rq("prompts/get", { name: "mixed" });
      expect(mixed.result.messages[2].content.type).toBe(version >= "2025-06-18" ? "resource_link" : "text");
      expect((await rq("prompts/get", { name: "nope" })).error.code).toBe(-32602);
      expect((await rq("prompts/get", { name: "review_code", arguments: { code: 1 } })).error).toMatchObject({
        code: -32602,
        message: expect.stringContaining('"code"'),
      });
      expect((await rq("prompts/get", { name: "failing" })).error).toEqual({
        code: -32603,
        message: "Prompt failing failed: prompt exploded",
      });
      const comp = await rq("completion/complete", {
        ref: { type: "ref/resource", uri: "notes:///{+path}" },
        argument: { name: "path", value: "a" },
      });
      expect(comp.result.completion).toEqual({ values: ["a.txt"] });
      expect(
        (
          await rq("completion/complete", {
            ref: { type: "ref/prompt", name: "nope" },
            argument: { name: "x", value: "" },
          })
        ).error.code,
      ).toBe(-32602);
      expect((await rq("logging/setLevel", { level: "loud" })).error.code).toBe(-32602);
      expect((await rq("subscriptions/listen", { notifications: {} })).error.code).toBe(-32601);
      // The session goes on after every error.
      expect((await rq("resources/read", { uri: "docs://readme" })).result.contents).toHaveLength(1);
    });
  }

  test("subscribe → notifications/resources/updated on changed(); unsubscribe stops it; a template's list change reaches the session", async () => {
    const p = spawn();
    await p.handshake("2025-11-25");
    await p.request("resources/subscribe", { uri: "notes:///a.txt" }, 2, "2025-11-25");
    await p.request("tools/call", { name: "touch", arguments: { what: "notes" } }, 3, "2025-11-25");
    const updated = await p.waitFor((x) => x.method === "notifications/resources/updated");
    assertValidNotification("2025-11-25", "ResourceUpdatedNotification", updated);
    expect(updated.params).toEqual({ uri: "notes:///a.txt" });
    await p.request("tools/call", { name: "touch", arguments: { what: "list" } }, 4, "2025-11-25");
    const changed = await p.waitFor((x) => x.method === "notifications/resources/list_changed");
    assertValidNotification("2025-11-25", "ResourceListChangedNotification", changed);
    await p.request("resources/unsubscribe", { uri: "notes:///a.txt" }, 5, "2025-11-25");
    await p.request("tools/call", { name: "touch", arguments: { what: "notes" } }, 6, "2025-11-25");
    await p.request("ping", undefined, 7);
    expect(p.messages.filter((x) => x.method === "notifications/resources/updated")).toHaveLength(1);
    expect((await p.request("resources/subscribe", { uri: "nope://x" }, 8, "2025-11-25")).error).toMatchObject({
      code: -32002,
      data: { uri: "nope://x" },
    });
  });

  test("logging/setLevel: nothing before it, then the level and above", async () => {
    const p = spawn();
    await p.handshake("2025-06-18");
    await p.request("tools/call", { name: "chatty", arguments: {} }, 2, "2025-06-18");
    expect(p.messages.some((x) => x.method === "notifications/message")).toBe(false);
    await p.request("logging/setLevel", { level: "error" }, 3, "2025-06-18");
    await p.request("tools/call", { name: "chatty", arguments: {} }, 4, "2025-06-18");
    const logs = p.messages.filter((x) => x.method === "notifications/message");
    expect(logs.map((x) => x.params)).toEqual([{ level: "error", data: "something failed" }]);
    for (const l of logs) assertValidNotification("2025-06-18", "LoggingMessageNotification", l);
  });
});

describe("2026-07-28", () => {
  test("results carry resultType and cache hints; not found is -32602 with data.uri; legacy methods are -32601", async () => {
    const p = spawn();
    let id = 1;
    const rq = (method: string, params: Record<string, unknown> = {}) => p.request(method, m(params), id++, MODERN);
    const discover = await rq("server/discover");
    expect(discover.result.capabilities).toMatchObject({
      resources: { subscribe: true, listChanged: true },
      prompts: {},
      completions: {},
      logging: {},
    });
    const list = await rq("resources/list");
    expect(list.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" }); // a template lists resources: computed per request
    expect((await rq("resources/templates/list")).result).toMatchObject({
      resultType: "complete",
      ttlMs: 300000,
      cacheScope: "public",
    });
    expect((await rq("prompts/list")).result).toMatchObject({ resultType: "complete", cacheScope: "public" });
    expect((await rq("resources/read", { uri: "docs://readme" })).result).toMatchObject({
      resultType: "complete",
      ttlMs: 60000,
      cacheScope: "public",
    });
    expect((await rq("resources/read", { uri: "live://counter" })).result).toMatchObject({
      ttlMs: 0,
      cacheScope: "private",
    });
    const got = await rq("prompts/get", { name: "review_code", arguments: { code: "c" } });
    expect(got.result.resultType).toBe("complete");
    expect("ttlMs" in got.result).toBe(false);
    expect((await rq("resources/read", { uri: "nope://x" })).error).toEqual({
      code: -32602,
      message: "Resource not found: nope://x",
      data: { uri: "nope://x" },
    });
    expect((await rq("resources/subscribe", { uri: "docs://readme" })).error.code).toBe(-32601);
    expect((await rq("logging/setLevel", { level: "info" })).error.code).toBe(-32601);
    expect(
      (
        await rq("completion/complete", {
          ref: { type: "ref/prompt", name: "review_code" },
          argument: { name: "language", value: "g" },
        })
      ).result.completion,
    ).toEqual({ values: ["go"] });
  });

  test("the per-request logLevel: none without it, the level and above with it, -32602 for an unknown one", async () => {
    const p = spawn();
    await p.request("tools/call", m({ name: "chatty", arguments: {} }), 1, MODERN);
    expect(p.messages.some((x) => x.method === "notifications/message")).toBe(false);
    const withLevel = { name: "chatty", arguments: {}, _meta: { ...META, "io.modelcontextprotocol/logLevel": "info" } };
    await p.request("tools/call", withLevel, 2, MODERN);
    const logs = p.messages.filter((x) => x.method === "notifications/message");
    expect(logs.map((x) => x.params.level)).toEqual(["info", "error"]);
    for (const l of logs) assertValidNotification(MODERN, "LoggingMessageNotification", l);
    const bad = await p.request(
      "tools/call",
      { name: "chatty", arguments: {}, _meta: { ...META, "io.modelcontextprotocol/logLevel": "loud" } },
      3,
      MODERN,
    );
    expect(bad.error.code).toBe(-32602);
  });

  test("subscriptions/listen: ack first with only what is honoured, tagged notifications, cancelled stops them, shutdown ends it with its result", async () => {
    const p = spawn();
    p.send({
      jsonrpc: "2.0",
      id: "L1",
      method: "subscriptions/listen",
      params: m({
        notifications: {
          toolsListChanged: true,
          promptsListChanged: true,
          resourcesListChanged: true,
          resourceSubscriptions: ["live://counter", "nope://x"],
        },
      }),
    });
    const ack = await p.waitFor((x) => x.method === "notifications/subscriptions/acknowledged");
    assertValidNotification(MODERN, "SubscriptionsAcknowledgedNotification", ack);
    expect(ack.params).toEqual({
      notifications: { toolsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ["live://counter"] },
      _meta: { "io.modelcontextprotocol/subscriptionId": "L1" },
    });
    await p.request("tools/call", m({ name: "touch", arguments: {} }), 2, MODERN);
    const updated = await p.waitFor((x) => x.method === "notifications/resources/updated");
    assertValidNotification(MODERN, "ResourceUpdatedNotification", updated);
    expect(updated.params).toEqual({
      uri: "live://counter",
      _meta: { "io.modelcontextprotocol/subscriptionId": "L1" },
    });
    p.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "L1" } });
    p.send({
      jsonrpc: "2.0",
      id: "L2",
      method: "subscriptions/listen",
      params: m({ notifications: { resourceSubscriptions: ["docs://readme"] } }),
    });
    await p.waitFor(
      (x) =>
        x.method === "notifications/subscriptions/acknowledged" &&
        x.params._meta["io.modelcontextprotocol/subscriptionId"] === "L2",
    );
    await p.request("tools/call", m({ name: "touch", arguments: {} }), 3, MODERN);
    expect(p.messages.filter((x) => x.method === "notifications/resources/updated")).toHaveLength(1);
    expect(p.messages.some((x) => x.id === "L1")).toBe(false);
    p.closeStdin();
    const end = await p.response("L2");
    expect(end.result).toEqual({
      resultType: "complete",
      _meta: {
        "io.modelcontextprotocol/serverInfo": { name: "content", version: "1.0.0" },
        "io.modelcontextprotocol/subscriptionId": "L2",
      },
    });
    expect(await p.exited).toBe(0);
  });
});

describe("stateless pagination", () => {
  test("page size 2: every item once, no nextCursor on the last page; a cursor from process A works in process B; garbage is -32602", async () => {
    const env = { PAGE_SIZE: "2" };
    const a = spawn(FIXTURE, { env });
    const first = await a.request("prompts/list", m(), 1, MODERN);
    expect(first.result.prompts.map((x: { name: string }) => x.name)).toEqual(["review_code", "mixed"]);
    const cursor = first.result.nextCursor;
    expect(typeof cursor).toBe("string");
    const b = spawn(FIXTURE, { env });
    await b.handshake("2025-11-25");
    const second = await b.request("prompts/list", m({ cursor }), 100, MODERN);
    expect(second.result.prompts.map((x: { name: string }) => x.name)).toEqual(["many", "failing"]);
    expect("nextCursor" in second.result).toBe(false);
    expect(second.result.cacheScope).toBe(first.result.cacheScope);
    expect((await b.request("prompts/list", m({ cursor: "garbage" }), 2, MODERN)).error.code).toBe(-32602);
    expect((await b.request("resources/templates/list", m({ cursor }), 3, MODERN)).error.code).toBe(-32602);
    const names: string[] = [];
    let next: string | undefined;
    let id = 10;
    do {
      const r = await b.request("tools/list", next === undefined ? {} : { cursor: next }, id++, "2025-11-25");
      names.push(...r.result.tools.map((t: { name: string }) => t.name));
      next = r.result.nextCursor;
    } while (next !== undefined);
    expect(names).toEqual(["touch", "chatty", "read_direct"]);
  });
});
