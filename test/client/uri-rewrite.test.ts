// The gateway's URI rewriting: every upstream URI maps to one of ours and back exactly; ui:// stays ui://.
import { expect, test } from "bun:test";
import { UriRewriter } from "../../src/client/uri-rewrite.ts";

test("regular URIs get the server's token as a scheme prefix, ui:// URIs as the first path segment; back() inverts both", () => {
  const rw = new UriRewriter(["docs", "Git_Hub", "9lives"], true);
  const cases: [string, string, string][] = [
    ["docs", "file:///x", "docs+file:///x"],
    ["docs", "ui://views/chart", "ui://docs/views/chart"],
    ["Git_Hub", "repo://a/b?c=d#e", "git-hub+repo://a/b?c=d#e"],
    ["9lives", "https://example.com/a", "s9lives+https://example.com/a"],
    ["docs", "notes:///{+path}", "docs+notes:///{+path}"],
  ];
  for (const [server, uri, ours] of cases) {
    expect(rw.out(server, uri)).toBe(ours);
    expect(rw.back(ours)).toEqual({ server, uri });
  }
  // A client that lower-cases the scheme still reaches the same upstream.
  expect(rw.back("DOCS+file:///x")).toEqual({ server: "docs", uri: "file:///x" });
  // Nothing of ours: no upstream.
  expect(rw.back("file:///x")).toBeUndefined();
  expect(rw.back("other+file:///x")).toBeUndefined();
  expect(rw.back("ui://nobody/v")).toBeUndefined();
});

test("two names with one token are told apart by a stable hash; off, URIs pass as they are to the only upstream", () => {
  const a = new UriRewriter(["my_srv", "my-srv"], true);
  expect(a.token("my_srv")).toBe("my-srv");
  expect(a.token("my-srv")).toMatch(/^my-srv-[0-9a-f]{6}$/);
  expect(new UriRewriter(["my_srv", "my-srv"], true).token("my-srv")).toBe(a.token("my-srv"));
  expect(a.back(a.out("my-srv", "x://1"))).toEqual({ server: "my-srv", uri: "x://1" });
  const off = new UriRewriter(["only"], false);
  expect(off.out("only", "test://static-text")).toBe("test://static-text");
  expect(off.back("test://static-text")).toEqual({ server: "only", uri: "test://static-text" });
});

test("inside results: resource_link, embedded resources and MCP Apps view links are rewritten, other blocks kept", () => {
  const rw = new UriRewriter(["a", "b"], true);
  expect(rw.block("a", { type: "resource_link", uri: "x://1", name: "n" })).toEqual({
    type: "resource_link",
    uri: "a+x://1",
    name: "n",
  });
  expect(rw.block("a", { type: "resource", resource: { uri: "x://1", text: "t" } })).toEqual({
    type: "resource",
    resource: { uri: "a+x://1", text: "t" },
  });
  expect(rw.block("a", { type: "text", text: "x://1" })).toEqual({ type: "text", text: "x://1" });
  expect(
    rw.meta("b", { ui: { resourceUri: "ui://v/main", visibility: ["model"] }, "ui/resourceUri": "ui://v/main", k: 1 }),
  ).toEqual({
    ui: { resourceUri: "ui://b/v/main", visibility: ["model"] },
    "ui/resourceUri": "ui://b/v/main",
    k: 1,
  });
});
