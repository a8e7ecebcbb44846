// Content constructors and toolResult(): what they build, and the mistakes they refuse at construction.
import { expect, test } from "bun:test";
import {
  audioContent,
  ContentError,
  embeddedResource,
  imageContent,
  isToolResult,
  resourceLink,
  textContent,
  toolResult,
} from "../../src/index.ts";

const PNG = "iVBORw0KGgo=";

test("each constructor builds the wire shape with camelCase options mapped to spec names", () => {
  expect(textContent("hi")).toEqual({ type: "text", text: "hi" });
  expect(
    textContent("hi", {
      annotations: { audience: ["user"], priority: 0.5, lastModified: "2025-01-01T00:00:00Z" },
      meta: { k: 1 },
    }),
  ).toEqual({
    type: "text",
    text: "hi",
    annotations: { audience: ["user"], priority: 0.5, lastModified: "2025-01-01T00:00:00Z" },
    _meta: { k: 1 },
  });
  expect(imageContent(PNG, "image/png")).toEqual({ type: "image", data: PNG, mimeType: "image/png" });
  expect(audioContent("UklGRg==", "audio/wav")).toEqual({ type: "audio", data: "UklGRg==", mimeType: "audio/wav" });
  expect(
    resourceLink({
      uri: "file:///a.txt",
      name: "a.txt",
      title: "A",
      description: "d",
      mimeType: "text/plain",
      size: 3,
      meta: { m: true },
    }),
  ).toEqual({
    type: "resource_link",
    uri: "file:///a.txt",
    name: "a.txt",
    title: "A",
    description: "d",
    mimeType: "text/plain",
    size: 3,
    _meta: { m: true },
  });
  expect(embeddedResource({ uri: "mem://x", text: "body", mimeType: "text/plain" })).toEqual({
    type: "resource",
    resource: { uri: "mem://x", mimeType: "text/plain", text: "body" },
  });
  expect(embeddedResource({ uri: "mem://y", blob: "AAEC", annotations: { priority: 1 } })).toEqual({
    type: "resource",
    resource: { uri: "mem://y", blob: "AAEC" },
    annotations: { priority: 1 },
  });
});

test("a data: URL is reduced to its plain base64 payload, taking its MIME type when none is given", () => {
  expect(imageContent(`data:image/png;base64,${PNG}`)).toEqual({ type: "image", data: PNG, mimeType: "image/png" });
  expect(imageContent(`data:image/png;base64,${PNG}`, "image/x-custom")).toMatchObject({
    data: PNG,
    mimeType: "image/x-custom",
  });
  expect(audioContent("data:audio/wav;base64,UklGRg==")).toMatchObject({ data: "UklGRg==", mimeType: "audio/wav" });
  expect(embeddedResource({ uri: "mem://z", blob: "data:application/pdf;base64,JVBERg==" }).type).toBe("resource");
  expect((embeddedResource({ uri: "mem://z", blob: "data:application/pdf;base64,JVBERg==" }) as any).resource).toEqual({
    uri: "mem://z",
    blob: "JVBERg==",
    mimeType: "application/pdf",
  });
  // Line-wrapped base64 (MIME style) is accepted and unwrapped.
  expect((imageContent("iVBO\nRw0K\r\nGgo=", "image/png") as any).data).toBe(PNG);
});

test("data outside the base64 alphabet is refused at construction", () => {
  for (const bad of ["not base64!", "abc$", "iVBO=Rw0", "a", "-_-_", `data:image/png,${PNG}`]) {
    expect(() => imageContent(bad, "image/png")).toThrow(ContentError);
  }
  expect(() => imageContent("%%%", "image/png")).toThrow(/imageContent: data is not base64/);
  expect(() => audioContent("***", "audio/wav")).toThrow(/audioContent: data is not base64/);
  expect(() => embeddedResource({ uri: "mem://x", blob: "?" })).toThrow(/embeddedResource: data is not base64/);
  expect(() => imageContent("data:image/png,rawbytes")).toThrow(/not base64-encoded/);
  expect(() => imageContent(42 as never, "image/png")).toThrow(/must be a base64 string/);
});

test("a MIME type must be given and well formed", () => {
  expect(() => imageContent(PNG, "")).toThrow(/mimeType must be a MIME type/);
  expect(() => imageContent(PNG)).toThrow(
    /imageContent: mimeType must be a MIME type like "image\/png", got undefined/,
  );
  expect(() => audioContent("UklGRg==", "wav")).toThrow(ContentError);
  expect(() => resourceLink({ uri: "file:///a", name: "a", mimeType: "text plain" })).toThrow(/resourceLink: mimeType/);
  expect(() => embeddedResource({ uri: "mem://x", text: "t", mimeType: " " })).toThrow(/embeddedResource: mimeType/);
});

test("a URI must parse", () => {
  expect(() => resourceLink({ uri: "not a uri", name: "a" })).toThrow(
    /resourceLink: uri must be an absolute URI, got "not a uri"/,
  );
  expect(() => resourceLink({ uri: "relative/path.txt", name: "a" })).toThrow(ContentError);
  expect(() => embeddedResource({ uri: "", text: "x" })).toThrow(/embeddedResource: uri/);
  expect(resourceLink({ uri: "https://example.com/a?b=c#d", name: "a" })).toMatchObject({
    uri: "https://example.com/a?b=c#d",
  });
});

test("an embedded resource has exactly one of text and blob", () => {
  expect(() => embeddedResource({ uri: "mem://x" })).toThrow(/exactly one of text or blob/);
  expect(() => embeddedResource({ uri: "mem://x", text: "a", blob: "AAAA" })).toThrow(/exactly one of text or blob/);
  expect(() => embeddedResource({ uri: "mem://x", text: 5 as never })).toThrow(/text must be a string/);
});

test("other cheap checks: name, size, annotations, meta, text", () => {
  expect(() => resourceLink({ uri: "file:///a", name: "" })).toThrow(/name must be a non-empty string/);
  expect(() => resourceLink({ uri: "file:///a", name: "a", size: -1 })).toThrow(/size must be a whole number of bytes/);
  expect(() => resourceLink({ uri: "file:///a", name: "a", size: 1.5 })).toThrow(/size/);
  expect(() => textContent("x", { annotations: { priority: 2 } })).toThrow(/priority must be a number from 0 to 1/);
  expect(() => textContent("x", { annotations: { audience: ["robot" as never] } })).toThrow(/audience/);
  expect(() => textContent("x", { annotations: { lastModified: "yesterday" } })).toThrow(
    /lastModified must be an ISO 8601 timestamp/,
  );
  expect(() => textContent("x", { meta: [] as never })).toThrow(/meta must be an object/);
  expect(() => textContent(3 as never)).toThrow(/text must be a string/);
});

test("toolResult is the only way to a native result; look-alike objects and hand-made blocks are refused", () => {
  const r = toolResult({ content: [textContent("a")], structuredContent: { a: 1 }, meta: { x: 1 } });
  expect(isToolResult(r)).toBe(true);
  expect(isToolResult({ content: [{ type: "text", text: "a" }] })).toBe(false);
  expect(() => toolResult({ content: [{ type: "text", text: "a" } as never] })).toThrow(
    /content\[0\] was not made by textContent/,
  );
  expect(() => toolResult({ content: "a" as never })).toThrow(/content must be an array/);
  expect(() => toolResult({ isError: "yes" as never })).toThrow(/isError must be a boolean/);
  expect(() => toolResult({ meta: 1 as never })).toThrow(/meta must be an object/);
});
