// Smaller faults from public bug reports against other MCP implementations, each over a real pipe: a malformed
// `initialize` leaves the session uninitialized; a tool set that changes tells every connected client; a
// resource template with a non-ASCII literal matches the percent-encoded URI a conforming client sends.
import { expect, test } from "bun:test";
import { INITED, spawnPerTest } from "../helpers/proc.ts";
import { matchUriTemplate, parseUriTemplate } from "../../src/content/uri-template.ts";

const spawn = spawnPerTest("test/fixtures/servers/live-tools.ts");
const init = (capabilities: unknown, id = 1) => ({
  protocolVersion: "2025-11-25",
  capabilities,
  clientInfo: { name: "t", version: "1" },
});

test("initialize with capabilities that are not an object (an array, a string, null) is -32602 and the session stays uninitialized", async () => {
  const p = spawn();
  let id = 1;
  for (const caps of [[], "all", null, 7]) {
    const r = await p.request("initialize", init(caps), id++);
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.message).toContain('"capabilities" must be an object');
  }
  expect((await p.request("tools/list", {}, id++)).error).toBeDefined(); // still not initialized
  const ok = await p.request("initialize", init({}), id++);
  expect(ok.result.protocolVersion).toBe("2025-11-25");
});

test("tools.listChanged is advertised by default and every change (addTool, removeTool, enableTool) is told to the client", async () => {
  const p = spawn();
  const caps = (await p.request("initialize", init({}), 1)).result.capabilities;
  expect(caps.tools).toEqual({ listChanged: true });
  p.send(INITED);
  const changes = () => p.messages.filter((m) => m.method === "notifications/tools/list_changed").length;
  let id = 10;
  for (const [name, after] of [
    ["add", 1],
    ["remove", 2],
    ["disable", 3],
  ] as const) {
    expect((await p.request("tools/call", { name, arguments: {} }, id++)).result.isError).toBeUndefined();
    await p.waitFor(() => changes() >= after);
  }
  expect((await p.request("tools/list", {}, id++)).result.tools.map((t: { name: string }) => t.name)).toEqual([
    "remove",
    "disable",
  ]);
});

test("a resource template with a non-ASCII literal matches the percent-encoded URI too, answered with the URI as requested", async () => {
  const t = parseUriTemplate("docs:///café/{item}");
  expect(matchUriTemplate(t, "docs:///café/x")).toEqual({ item: "x" });
  expect(matchUriTemplate(t, "docs:///caf%C3%A9/x")).toEqual({ item: "x" });
  expect(matchUriTemplate(t, "docs:///caf%c3%a9/x")).toEqual({ item: "x" });
  expect(matchUriTemplate(t, "docs:///caf%C3/x")).toBeUndefined();
  const p = spawn();
  await p.request("initialize", init({}), 1);
  p.send(INITED);
  for (const [id, uri] of [
    [2, "docs:///caf%C3%A9/r%C3%A9sum%C3%A9"],
    [3, "docs:///café/menu"],
  ] as const) {
    const r = await p.request("resources/read", { uri }, id);
    expect(r.result?.contents).toEqual([{ uri, text: `item ${id === 2 ? "résumé" : "menu"}` }]);
  }
  // A fixed resource's non-ASCII URI too, in either case of hex.
  for (const [id, uri] of [
    [4, "docs:///men%C3%BC.txt"],
    [5, "docs:///men%c3%bc.txt"],
    [6, "docs:///menü.txt"],
  ] as const) {
    expect((await p.request("resources/read", { uri }, id)).result?.contents).toEqual([{ uri, text: "soup" }]);
  }
});
