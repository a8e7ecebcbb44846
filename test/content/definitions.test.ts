/** Resources, templates and prompts used directly: construction checks, reading, matching, projection per version, cursors. */
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { resource, resourceTemplate, ResourceReadError } from "../../src/content/resource.ts";
import { prompt, PromptArgumentsError } from "../../src/content/prompt.ts";
import { Catalog } from "../../src/content/catalog.ts";
import { completionOf } from "../../src/content/completion.ts";
import { onContentChange, ContentDefinitionError } from "../../src/content/common.ts";
import { expandUriTemplate, matchUriTemplate, parseUriTemplate } from "../../src/content/uri-template.ts";
import {
  projectContents,
  projectPrompt,
  projectPromptResult,
  projectResource,
  projectTemplate,
} from "../../src/content/project.ts";
import { page, listHash } from "../../src/protocol/cursor.ts";
import { FEATURES, SUPPORTED_VERSIONS } from "../../src/protocol/versions.ts";
import { audioContent, imageContent, resourceLink, textContent } from "../../src/shared/content-blocks.ts";
import { assertValidDef } from "../helpers/schema.ts";

const readme = resource({
  uri: "docs://readme",
  name: "readme",
  title: "README",
  description: "The project README",
  mimeType: "text/markdown",
  annotations: { audience: ["user"], priority: 0.5, lastModified: "2026-01-01T00:00:00Z" },
  icons: [{ src: "https://example.com/readme.png", mimeType: "image/png" }],
  meta: { "example.com/x": 1 },
  text: "# Hello",
});

const notes = resourceTemplate({
  uriTemplate: "notes:///{+path}",
  name: "notes",
  title: "Notes",
  mimeType: "text/plain",
  icons: [{ src: "https://example.com/n.png" }],
  variables: v.object({ path: v.pipe(v.string(), v.regex(/\.txt$/, "must end in .txt")) }),
  list: () => [{ uri: "notes:///a.txt", name: "a.txt" }],
  complete: { path: (value) => ["a.txt", "b.txt"].filter((s) => s.startsWith(value)) },
  read: ({ path }) => `contents of ${path}`,
});

const review = prompt({
  name: "review_code",
  title: "Review code",
  description: "Ask for a code review",
  arguments: v.object({
    code: v.pipe(v.string(), v.description("The code")),
    language: v.optional(v.picklist(["ts", "rust", "go"])),
  }),
  get: ({ code, language }) => `Review this ${language ?? ""} code:\n${code}`,
});

describe("definitions", () => {
  test("a resource reads directly, with its size and mimeType", async () => {
    expect(await readme.read()).toEqual([{ uri: "docs://readme", mimeType: "text/markdown", text: "# Hello" }]);
    expect(readme.size).toBe(7);
    const bin = resource({ uri: "bin://x", name: "x", blob: new Uint8Array([0, 1, 2]) });
    expect(await bin.read()).toEqual([{ uri: "bin://x", blob: "AAEC" }]);
    const several = resource({
      uri: "multi://x",
      name: "m",
      read: () => [
        { text: "a" },
        { uri: "multi://x#2", blob: new Uint8Array([255]), mimeType: "application/octet-stream" },
      ],
    });
    expect(await several.read()).toEqual([
      { uri: "multi://x", text: "a" },
      { uri: "multi://x#2", mimeType: "application/octet-stream", blob: "/w==" },
    ]);
  });

  test("a template matches, checks its variables, refuses .. and reads", async () => {
    expect(notes.match("notes:///a/b.txt")).toEqual({ path: "a/b.txt" });
    expect(await notes.read("notes:///a/b.txt")).toEqual([
      { uri: "notes:///a/b.txt", mimeType: "text/plain", text: "contents of a/b.txt" },
    ]);
    expect(await notes.read({ path: "c.txt" })).toEqual([
      { uri: "notes:///c.txt", mimeType: "text/plain", text: "contents of c.txt" },
    ]);
    await expect(notes.read("notes:///../etc/passwd.txt")).rejects.toThrow(/"\.\." segment/);
    await expect(notes.read("notes:///a/%2E%2E/b.txt")).rejects.toBeInstanceOf(ResourceReadError);
    await expect(notes.read("notes:///a.md")).rejects.toThrow(/must end in \.txt/);
  });

  test("a prompt gets its messages directly and names a missing or non-string argument", async () => {
    expect(await review.get({ code: "x=1", language: "ts" })).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Review this ts code:\nx=1" } }],
    });
    await expect(review.get({})).rejects.toThrow(/needs the argument "code"/);
    await expect(review.get({ code: 5 })).rejects.toBeInstanceOf(PromptArgumentsError);
    expect(review.arguments).toEqual([
      { name: "code", description: "The code", required: true },
      { name: "language", required: false },
    ]);
  });

  test("construction errors name what to change", () => {
    expect(() => resource({ uri: "not a uri", name: "x", text: "" })).toThrow(/"not a uri" is not a URI/);
    expect(() => resource({ uri: "docs://{x}", name: "x", text: "" })).toThrow(/resourceTemplate/);
    expect(() => resource({ uri: "docs://x", name: "x" } as never)).toThrow(
      /exactly one of "text", "blob", "file" or "read"/,
    );
    expect(() => resource({ uri: "docs://x", name: "x", file: "./no-such-file.md" })).toThrow(
      /resource "docs:\/\/x": file ".\/no-such-file.md" not found/,
    );
    expect(() => resourceTemplate({ uriTemplate: "notes:///{path", name: "n", read: () => "" })).toThrow(
      ContentDefinitionError,
    );
    expect(() => resourceTemplate({ uriTemplate: "notes:///{path*}", name: "n", read: () => "" })).toThrow(
      /level-4 modifier/,
    );
    expect(() =>
      resourceTemplate({
        uriTemplate: "notes:///{path}",
        name: "n",
        variables: v.object({ other: v.string() }),
        read: () => "",
      }),
    ).toThrow(/names "other"/);
    expect(() => prompt({ name: "p", arguments: v.object({ n: v.number() }), get: () => "" })).toThrow(
      /the argument "n" is v.number\(\), but MCP prompt arguments are strings/,
    );
    expect(() => prompt({ name: "bad name", get: () => "" })).toThrow(/prompt name "bad name"/);
  });

  test("changed() reaches listeners", () => {
    const seen: unknown[] = [];
    const stop = onContentChange((c) => seen.push([c.kind, c.uri]));
    readme.changed();
    notes.changed("notes:///a.txt");
    notes.changed();
    stop();
    readme.changed();
    expect(seen).toEqual([
      ["resource", "docs://readme"],
      ["resource", "notes:///a.txt"],
      ["list", undefined],
    ]);
  });

  test("the catalog refuses duplicates and finds by URI", () => {
    expect(
      () => new Catalog({ resources: [readme, resource({ uri: "docs://readme", name: "again", text: "" })] }),
    ).toThrow(/two resources have the URI "docs:\/\/readme"/);
    expect(() => new Catalog({ prompts: [review, review] })).toThrow(/two prompts are named "review_code"/);
    const c = new Catalog({ resources: [readme, notes], prompts: [review] });
    expect(c.find("docs://readme")).toEqual({ resource: readme });
    expect(c.find("notes:///x.txt")).toEqual({ template: notes, vars: { path: "x.txt" } });
    expect(c.find("other://x")).toBeUndefined();
    expect(c.hasCompletions).toBe(true);
    expect(completionOf(Array.from({ length: 150 }, (_, i) => `v${i}`))).toMatchObject({ total: 150, hasMore: true });
  });
});

describe("RFC 6570 level 1-3", () => {
  const cases: [string, Record<string, string>, string][] = [
    ["x://{a}", { a: "hello world" }, "x://hello%20world"],
    ["x://{+a}", { a: "a/b c" }, "x://a/b%20c"],
    ["x://h{#a}", { a: "frag" }, "x://h#frag"],
    ["x://h/{a,b}", { a: "1", b: "2" }, "x://h/1,2"],
    ["x://h{/a,b}", { a: "p", b: "q" }, "x://h/p/q"],
    ["x://h/f{.ext}", { ext: "json" }, "x://h/f.json"],
    ["x://h{;a}", { a: "v" }, "x://h;a=v"],
    ["x://h/s{?q,n}", { q: "a b", n: "2" }, "x://h/s?q=a%20b&n=2"],
    ["x://h/s?x=1{&q}", { q: "z" }, "x://h/s?x=1&q=z"],
  ];
  for (const [t, vars, uri] of cases) {
    test(`${t} ⇄ ${uri}`, () => {
      const parsed = parseUriTemplate(t);
      expect(expandUriTemplate(parsed, vars)).toBe(uri);
      expect(matchUriTemplate(parsed, uri)).toEqual(vars);
    });
  }
  test("query parameters match in any order, and optional ones may be missing", () => {
    const t = parseUriTemplate("x://h/s{?q,n}");
    expect(matchUriTemplate(t, "x://h/s?n=2&q=a")).toEqual({ q: "a", n: "2" });
    expect(matchUriTemplate(t, "x://h/s")).toEqual({});
    expect(matchUriTemplate(parseUriTemplate("x://h/{a}"), "x://h/a/b")).toBeUndefined();
  });
});

describe("projection per version, checked against each schema.json", () => {
  const catalog = new Catalog({ resources: [readme, notes], prompts: [review] });
  for (const version of SUPPORTED_VERSIONS) {
    const f = FEATURES.get(version)!;
    test(version, async () => {
      const res = projectResource(readme.uri, { ...readme.definition, size: readme.size }, f);
      assertValidDef(version, "Resource", res);
      const tpl = projectTemplate(notes.uriTemplate, notes.definition, f);
      assertValidDef(version, "ResourceTemplate", tpl);
      const pr = projectPrompt(review.definition, review.arguments, f);
      assertValidDef(version, "Prompt", pr);
      for (const c of projectContents([...(await readme.read()), { uri: "x://b", blob: "AA==", _meta: { a: 1 } }], f)) {
        assertValidDef(version, c.text !== undefined ? "TextResourceContents" : "BlobResourceContents", c);
      }
      const has = (o: object, k: string) => k in o;
      expect(has(res, "title")).toBe(version >= "2025-06-18");
      expect(has(res, "_meta")).toBe(version >= "2025-06-18");
      expect(has(res, "icons")).toBe(version >= "2025-11-25");
      expect(has(res.annotations as object, "lastModified")).toBe(version >= "2025-06-18");
      expect(has(tpl, "icons")).toBe(version >= "2025-11-25");
      const messages = await prompt({
        name: "mixed",
        get: () => [
          { role: "user", content: textContent("t") },
          { role: "assistant", content: imageContent("AA==", "image/png") },
          { role: "user", content: resourceLink({ uri: "docs://readme", name: "readme" }) },
        ],
      }).get();
      const got = projectPromptResult(messages, f);
      for (const m of got.messages as object[]) assertValidDef(version, "PromptMessage", m);
      expect((got.messages as { content: { type: string } }[])[2]!.content.type).toBe(
        version >= "2025-06-18" ? "resource_link" : "text",
      );
      const audio = await prompt({
        name: "a",
        get: () => [{ role: "user", content: audioContent("AA==", "audio/wav") }],
      }).get();
      if (version === "2024-11-05")
        expect(() => projectPromptResult(audio, f)).toThrow(
          /audio content, which protocol version 2024-11-05 cannot carry/,
        );
      else
        for (const m of projectPromptResult(audio, f).messages as object[]) assertValidDef(version, "PromptMessage", m);
      expect(catalog.templates.length).toBe(1);
    });
  }
});

describe("stateless cursors", () => {
  const items = ["a", "b", "c", "d", "e"];
  const hash = listHash("resources/list", items);
  test("page size 2 over 5 items returns each once, no nextCursor on the last page", () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const p = page(items, cursor, 2, hash);
      seen.push(...p.items);
      cursor = p.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(seen).toEqual(items);
    expect(pages).toBe(3);
  });
  test("a garbage cursor, another list's cursor and one past the end are refused", () => {
    const next = page(items, undefined, 2, hash).nextCursor!;
    expect(() => page(items, "garbage", 2, hash)).toThrow(/unknown cursor/);
    expect(() => page(items, next, 2, listHash("prompts/list", items))).toThrow(/another list/);
    expect(() => page(items, Buffer.from(`99.${hash}`).toString("base64url"), 2, hash)).toThrow(/past the end/);
    // Any process computes the same hash for the same list.
    expect(listHash("resources/list", [...items])).toBe(hash);
  });
});
