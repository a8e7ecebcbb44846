// mcpbin list shows resources, templates and prompts; mcpbin read <uri> and mcpbin prompt <name> key=value… work like mcpbin call.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ROOT } from "../helpers/proc.ts";
import { mcpbin, oneLineError } from "./run-cli.ts";

setDefaultTimeout(60_000);
const FIXTURE = "test/fixtures/servers/content.ts";

test("list: resources, templates and prompts after the tools, as tables and as JSON", async () => {
  const r = await mcpbin(["list", FIXTURE]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("RESOURCE        NAME     MIME TYPE      SOURCE\ndocs://readme   readme   text/markdown");
  expect(r.stdout).toContain("notes:///{+path}");
  expect(r.stdout).toContain("review_code  code, language?");
  const j = JSON.parse((await mcpbin(["list", FIXTURE, "--json"])).stdout);
  expect(j.resources.map((x: { uri: string }) => x.uri)).toEqual([
    "docs://readme",
    "docs://guide",
    "img://logo",
    "live://counter",
    "docs://broken",
  ]);
  expect(j.resourceTemplates.map((x: { uriTemplate: string }) => x.uriTemplate)).toEqual([
    "notes:///{+path}",
    "users://{id}/profile{?fields}",
  ]);
  expect(j.prompts[0]).toEqual({ name: "review_code", arguments: ["code", "language?"], source: null });
});

test("read and prompt print what a client would see; errors are one line with exit 1", async () => {
  const guide = await mcpbin(["read", "docs://guide", FIXTURE]);
  expect(guide.stdout).toBe(readFileSync(resolve(ROOT, "test/fixtures/servers/content-files/guide.md"), "utf8") + "\n");
  const json = JSON.parse((await mcpbin(["read", "notes:///x.txt", FIXTURE, "--json"])).stdout);
  expect(json).toEqual({ contents: [{ uri: "notes:///x.txt", mimeType: "text/plain", text: "contents of x.txt" }] });
  const p = await mcpbin(["prompt", "review_code", "code=x = 1", "language=ts", FIXTURE]);
  expect(p.stdout).toBe("user: Review this ts code:\nx = 1\n");
  expect(oneLineError(await mcpbin(["read", "nope://x", FIXTURE]))).toBe(
    "mcpbin: read: Resource not found: nope://x (JSON-RPC error -32002)",
  );
  expect(oneLineError(await mcpbin(["prompt", "review_code", FIXTURE]))).toContain('needs the argument "code"');
});
