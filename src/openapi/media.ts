/** @module Media types of an OpenAPI content map: which one a tool sends or reads, and which are JSON. */

const MEDIA_ORDER = [
  (t: string) => t === "application/json" || /^application\/[\w.+-]*\+json$/.test(t),
  (t: string) => t === "application/x-www-form-urlencoded",
  (t: string) => t === "multipart/form-data",
  (t: string) => t === "text/plain",
  (t: string) => t.startsWith("text/"),
];

/** The media type of a content map the tool uses: JSON first, then forms, then text, then the first listed. */
export function pickMedia(content: Record<string, unknown> | undefined): string | undefined {
  const types = content ? Object.keys(content) : [];
  for (const ok of MEDIA_ORDER) {
    const t = types.find((x) => ok(x.toLowerCase().split(";")[0]!.trim()));
    if (t) return t;
  }
  return types[0];
}

/** True when a content type is JSON (`application/json`, `…+json`). */
export function isJsonType(t: string): boolean {
  const base = t.toLowerCase().split(";")[0]!.trim();
  return base === "application/json" || base.endsWith("+json") || base === "*/*";
}
