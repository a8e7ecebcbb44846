// Showcase: every content block type (text, image, audio, resource_link, embedded resource text and blob),
// annotations, _meta, and structured output (a valibot `output` and a raw `outputSchema`), in one server.
import * as v from "valibot";
import { deflateSync, gzipSync } from "node:zlib";
import {
  audioContent,
  embeddedResource,
  imageContent,
  resourceLink,
  serve,
  textContent,
  tool,
  toolResult,
} from "mcpbin";

/** A solid-colour PNG (RGB, 8 bits per channel), built by hand: signature, IHDR, IDAT, IEND. */
function png(width: number, height: number, [r, g, b]: readonly [number, number, number]): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB
  const row = [0, ...Array.from({ length: width }, () => [r, g, b]).flat()]; // filter byte 0, then pixels
  const pixels = new Uint8Array(Array.from({ length: height }, () => row).flat());
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", new Uint8Array()),
  ];
  return Buffer.concat(parts);
}

/** image: a colour swatch; the text block beside it is for the user only. */
export const colorSwatch = tool({
  name: "color_swatch",
  title: "Colour swatch",
  description: "Render a hex colour (#rrggbb) as a small PNG swatch.",
  input: v.object({
    hex: v.pipe(v.string(), v.regex(/^#?[0-9a-fA-F]{6}$/, "a colour like #3366ff")),
    size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(64)), 16),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: ({ hex, size }) => {
    const n = Number.parseInt(hex.replace("#", ""), 16);
    const image = png(size, size, [(n >> 16) & 255, (n >> 8) & 255, n & 255]);
    return toolResult({
      content: [
        imageContent(Buffer.from(image).toString("base64"), "image/png", {
          annotations: { audience: ["user", "assistant"], priority: 1 },
        }),
        textContent(`${size}×${size} swatch of #${hex.replace("#", "").toLowerCase()}`, {
          annotations: { audience: ["user"] },
        }),
      ],
    });
  },
});

/** audio: a sine tone as a 16-bit mono WAV (a data: URL, reduced to plain base64 by audioContent). */
export const tone = tool({
  name: "tone",
  title: "Tone generator",
  description: "Generate a short sine tone as a WAV file.",
  input: v.object({
    frequency: v.pipe(v.number(), v.minValue(20), v.maxValue(4000)),
    ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(10), v.maxValue(1000)), 200),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: ({ frequency, ms }) => {
    const rate = 8000;
    const samples = Math.round((rate * ms) / 1000);
    const wav = new DataView(new ArrayBuffer(44 + samples * 2));
    const ascii = (at: number, s: string) => [...s].forEach((c, i) => wav.setUint8(at + i, c.charCodeAt(0)));
    (ascii(0, "RIFF"), wav.setUint32(4, 36 + samples * 2, true), ascii(8, "WAVE"), ascii(12, "fmt "));
    (wav.setUint32(16, 16, true),
      wav.setUint16(20, 1, true),
      wav.setUint16(22, 1, true),
      wav.setUint32(24, rate, true));
    (wav.setUint32(28, rate * 2, true),
      wav.setUint16(32, 2, true),
      wav.setUint16(34, 16, true),
      ascii(36, "data"),
      wav.setUint32(40, samples * 2, true));
    for (let i = 0; i < samples; i++)
      wav.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * frequency * i) / rate) * 0.3 * 32767), true);
    const url = `data:audio/wav;base64,${Buffer.from(wav.buffer).toString("base64")}`;
    return toolResult({
      content: [audioContent(url)],
      meta: { "example.com/tone": { frequency, ms, sampleRate: rate } },
    });
  },
});

const SPEC = "https://modelcontextprotocol.io/specification/2025-11-25";
const PAGES = [
  { topic: "tools", uri: `${SPEC}/server/tools`, title: "Tools" },
  { topic: "lifecycle", uri: `${SPEC}/basic/lifecycle`, title: "Lifecycle" },
  { topic: "transports", uri: `${SPEC}/basic/transports`, title: "Transports" },
] as const;

/** resource_link: links the client may fetch, with block-level _meta. */
export const specLinks = tool({
  name: "spec_links",
  title: "MCP specification links",
  description: "Links to pages of the MCP specification whose topic contains the query (all pages for an empty query).",
  input: v.object({ query: v.optional(v.string(), "") }),
  annotations: { readOnlyHint: true },
  run: ({ query }) => {
    const hits = PAGES.filter((p) => p.topic.includes(query.toLowerCase()));
    if (hits.length === 0)
      return toolResult({ content: [textContent(`No specification page about "${query}".`)], isError: true });
    return toolResult({
      content: hits.map((p) =>
        resourceLink({
          uri: p.uri,
          name: p.topic,
          title: p.title,
          mimeType: "text/html",
          meta: { "example.com/section": p.topic },
        }),
      ),
    });
  },
});

/** embedded resource, text and blob: a note as text, and the same note gzipped as a blob. */
export const exportNote = tool({
  name: "export_note",
  title: "Export a note",
  description: "Return a note as an embedded Markdown resource and as a gzipped blob.",
  input: v.object({ title: v.string(), body: v.string() }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: ({ title, body }) => {
    const markdown = `# ${title}\n\n${body}\n`;
    const uri = `note:///${encodeURIComponent(title)}`;
    const lastModified = new Date(0).toISOString();
    return toolResult({
      content: [
        embeddedResource({
          uri,
          mimeType: "text/markdown",
          text: markdown,
          annotations: { audience: ["assistant"], priority: 0.8, lastModified },
        }),
        embeddedResource({
          uri: `${uri}.gz`,
          mimeType: "application/gzip",
          blob: gzipSync(markdown).toString("base64"),
          meta: { "example.com/bytes": markdown.length },
        }),
      ],
    });
  },
});

/** Structured output with a valibot `output`: the return value is checked, then sent as structuredContent plus its JSON text. */
export const wordStats = tool({
  name: "word_stats",
  title: "Word statistics",
  description: "Count words and find the longest and most frequent word of a text.",
  input: v.object({ text: v.string() }),
  output: v.object({
    words: v.number(),
    longest: v.nullable(v.string()),
    top: v.array(v.object({ word: v.string(), count: v.number() })),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: ({ text }) => {
    const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
    const counts = new Map<string, number>();
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    const top = [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 3)
      .map(([word, count]) => ({ word, count }));
    const longest = words.reduce<string | null>(
      (best, w) => (best === null || w.length > best.length ? w : best),
      null,
    );
    return { words: words.length, longest, top };
  },
});

/** Structured output with a raw `outputSchema`, returned through toolResult with its own text and _meta. */
export const parseSemver = tool({
  name: "parse_semver",
  title: "Parse a semantic version",
  description: "Split a semantic version (2.0.0) into its parts.",
  input: v.object({ version: v.string() }),
  outputSchema: {
    type: "object",
    properties: {
      major: { type: "integer", minimum: 0 },
      minor: { type: "integer", minimum: 0 },
      patch: { type: "integer", minimum: 0 },
      prerelease: { type: "array", items: { type: "string" } },
      build: { type: "array", items: { type: "string" } },
    },
    required: ["major", "minor", "patch", "prerelease", "build"],
    additionalProperties: false,
  },
  run: ({ version }) => {
    const m = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/.exec(
      version.trim(),
    );
    if (!m)
      return toolResult({
        content: [textContent(`"${version}" is not a semantic version (MAJOR.MINOR.PATCH)`)],
        isError: true,
      });
    const parts = {
      major: Number(m[1]),
      minor: Number(m[2]),
      patch: Number(m[3]),
      prerelease: m[4]?.split(".") ?? [],
      build: m[5]?.split(".") ?? [],
    };
    return toolResult({
      content: [textContent(`major ${parts.major}, minor ${parts.minor}, patch ${parts.patch}`)],
      structuredContent: parts,
      meta: { "example.com/input": version },
    });
  },
});

await serve({
  name: "showcase",
  title: "Content and structured output showcase",
  version: "1.0.0",
  instructions:
    "Each tool shows one kind of MCP tool result: image, audio, resource links, embedded resources, structured content.",
  tools: [colorSwatch, tone, specLinks, exportNote, wordStats, parseSemver],
});
