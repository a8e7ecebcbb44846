/** @module An API response as a tool result: JSON as structuredContent plus text, other types by content type, non-2xx as isError, bodies capped. */
import { audioContent, embeddedResource, imageContent, textContent } from "../shared/content-blocks.ts";
import { toolResult, type ToolResult } from "../shared/result.ts";

/** How much of a response is kept. */
export interface ResponseLimits {
  /** Largest body read, bytes; the rest is dropped and the result says so. */
  readonly maxBytes: number;
  /** Largest part of an error body (non-2xx) shown, characters. */
  readonly errorChars: number;
}

/** Reads at most `max` bytes of a body, then cancels the rest. */
async function readCapped(res: Response, max: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!res.body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > max) {
      chunks.push(value.subarray(0, max - size));
      size = max;
      truncated = true;
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, truncated };
}

function isJson(type: string): boolean {
  return type === "application/json" || type.endsWith("+json");
}

function isText(type: string): boolean {
  return (
    type.startsWith("text/") ||
    isJson(type) ||
    /^application\/([\w.+-]*\+)?(xml|yaml|x-yaml|javascript|x-www-form-urlencoded|graphql|sql)$/.test(type)
  );
}

const decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * Turns a response into the tool's result.
 * - 2xx JSON: `structuredContent` (an object as is; any other value as `{ result: value }`) plus its compact JSON as text.
 * - 2xx text types: one text block; image/audio: an image/audio block; anything else: an embedded resource (base64 blob).
 * - Non-2xx: an `isError` result with the status, the reason, the method and URL, and the start of the body.
 * - A body over `maxBytes` is cut there and the result says so (a cut JSON body is text, not structured).
 * @param res - the response.
 * @param method - the request's method, for messages.
 * @param url - the request's URL, for messages and resource URIs.
 * @param limits - see {@link ResponseLimits}.
 * @returns the result for `run` to return.
 */
export async function toToolResult(
  res: Response,
  method: string,
  url: string,
  limits: ResponseLimits,
): Promise<ToolResult> {
  const type = (res.headers.get("content-type") ?? "").toLowerCase().split(";")[0]!.trim();
  const { bytes, truncated } = await readCapped(res, limits.maxBytes);
  const note = truncated
    ? `\n[truncated: the response body is over ${limits.maxBytes} bytes; only the first ${limits.maxBytes} are shown]`
    : "";
  const status = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`;
  if (!res.ok) {
    const text = decoder.decode(bytes);
    const shown = text.length > limits.errorChars ? `${text.slice(0, limits.errorChars)}…[truncated]` : text;
    return toolResult({
      isError: true,
      content: [
        textContent(
          `${status} from ${method} ${url}${shown ? `\n${shown}` : ""}${truncated && shown === text ? note : ""}`,
        ),
      ],
    });
  }
  if (bytes.byteLength === 0) return toolResult({ content: [textContent(`${status} (no content)`)] });
  if (isJson(type) && !truncated) {
    const text = decoder.decode(bytes);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return toolResult({ content: [textContent(text)] });
    }
    const structured = typeof value === "object" && value !== null && !Array.isArray(value) ? value : { result: value };
    return toolResult({ structuredContent: structured, content: [textContent(JSON.stringify(value))] });
  }
  if (isText(type) || type === "") return toolResult({ content: [textContent(decoder.decode(bytes) + note)] });
  const b64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  if (truncated)
    return toolResult({
      content: [
        textContent(`${status}: a ${type} body over ${limits.maxBytes} bytes (the response cap) was not returned`),
      ],
    });
  if (type.startsWith("image/")) return toolResult({ content: [imageContent(b64, type)] });
  if (type.startsWith("audio/")) return toolResult({ content: [audioContent(b64, type)] });
  return toolResult({ content: [embeddedResource({ uri: url, blob: b64, mimeType: type })] });
}
