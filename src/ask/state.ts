/** @module The 2026-07-28 `requestState` codec: the answers so far, bound to the request, HMAC-SHA256 signed, bounded in size, expiring. */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import type { AskKind } from "./answers.ts";

// node:crypto is required on first use, not imported: a static import is hoisted into every start (+6 M instructions, docs/benchmarks.md).
const nodeCrypto = (): typeof import("node:crypto") => require("node:crypto") as typeof import("node:crypto");

/** The largest `requestState` sent or accepted, in bytes (base64url text). */
export const MAX_STATE_BYTES = 256 * 1024;

/** How long a `requestState` stays valid after it is issued, in milliseconds (10 minutes). */
export const STATE_TTL_MS = 10 * 60 * 1000;

/** The fewest characters `MCPBIN_STATE_KEY` may have. */
export const MIN_KEY_LENGTH = 32;

const PREFIX = "m1.";

/** What a `requestState` carries (field names kept short: the state travels twice per round). */
export interface StatePayload {
  /** The method of the originating request (`tools/call`, `prompts/get`, `resources/read`). */
  readonly m: string;
  /** The tool, prompt or resource it names. */
  readonly n: string;
  /** {@link argumentsDigest} of its arguments. */
  readonly h: string;
  /** Expiry, epoch milliseconds. */
  readonly e: number;
  /** The round that issued it (1 for the first `input_required`). */
  readonly r: number;
  /** The call's id, made in its first round: links the rounds (tracing). */
  readonly c: string;
  /** The answers so far, by `inputRequests` key: the kind asked and the client's (shape-checked) result. */
  readonly a: Readonly<Record<string, readonly [AskKind, unknown]>>;
}

/** The binding a state must match: the request it continues. */
export interface StateBinding {
  readonly method: string;
  readonly name: string;
  readonly args: unknown;
}

let key: Buffer | undefined;

/**
 * The HMAC key: `MCPBIN_STATE_KEY` (UTF-8, at least {@link MIN_KEY_LENGTH} characters), else 32 random
 * bytes made once per process — which pins a multi-round call to the process that started it.
 * @throws Error when the variable is set but shorter than the minimum (see {@link stateKeyProblem}).
 */
export function stateKey(): Buffer {
  if (key) return key;
  const problem = stateKeyProblem(process.env);
  if (problem) throw new Error(problem);
  const text = process.env.MCPBIN_STATE_KEY;
  key = text ? Buffer.from(text, "utf8") : nodeCrypto().randomBytes(32);
  return key;
}

/**
 * The start-up check of `MCPBIN_STATE_KEY`.
 * @param env - the environment.
 * @returns one line saying what to change, or undefined when the key is usable (or unset).
 */
export function stateKeyProblem(env: Record<string, string | undefined>): string | undefined {
  const text = env.MCPBIN_STATE_KEY;
  if (text === undefined || text === "") return undefined;
  if (text.length < MIN_KEY_LENGTH) {
    return `MCPBIN_STATE_KEY has ${text.length} characters; use at least ${MIN_KEY_LENGTH} (e.g. the output of \`openssl rand -hex 32\`), the same in every process behind one address`;
  }
  return undefined;
}

/**
 * A digest of a request's arguments, independent of key order (SHA-256 of canonical JSON, base64url, 128 bits).
 * @param args - the arguments as the client sent them.
 */
export function argumentsDigest(args: unknown): string {
  return nodeCrypto().createHash("sha256").update(canonical(args)).digest("base64url").slice(0, 22);
}

function canonical(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonical).join(",")}]`;
  if (typeof x === "object" && x !== null) {
    return `{${Object.keys(x)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((x as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(x) ?? "null";
}

function sign(body: string, k: Buffer): string {
  return nodeCrypto().createHmac("sha256", k).update(PREFIX).update(body).digest("base64url");
}

/**
 * Encodes and signs a state: `m1.<base64url JSON>.<base64url HMAC-SHA256>`.
 * @param payload - what the retry needs.
 * @param k - the key (default {@link stateKey}).
 * @returns the `requestState` text, or undefined when it would exceed {@link MAX_STATE_BYTES}.
 */
export function encodeState(payload: StatePayload, k: Buffer = stateKey()): string | undefined {
  const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  const text = `${PREFIX}${body}.${sign(body, k)}`;
  return text.length > MAX_STATE_BYTES ? undefined : text;
}

/**
 * Verifies and decodes a client's `requestState` (MCP 2026-07-28 basic/patterns/mrtr "Server Requirements":
 * attacker-controlled input, integrity-checked, expiring, bound to the originating request).
 * @param text - `params.requestState` as sent.
 * @param binding - the request it must continue.
 * @param now - the clock, epoch milliseconds.
 * @param k - the key (default {@link stateKey}).
 * @returns the payload.
 * @throws RpcError -32602 for a state that is not a string, too large, malformed, forged or tampered
 *   (signed with another key: another server or process), expired, or issued for another request.
 */
export function decodeState(
  text: unknown,
  binding: StateBinding,
  now: number = Date.now(),
  k: Buffer = stateKey(),
): StatePayload {
  const bad = (why: string): never => {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: requestState ${why}`);
  };
  if (typeof text !== "string") return bad("must be a string");
  if (text.length > MAX_STATE_BYTES) return bad(`is over ${MAX_STATE_BYTES} bytes`);
  const dot = text.lastIndexOf(".");
  if (!text.startsWith(PREFIX) || dot <= PREFIX.length) return bad("is not one this server issued");
  const body = text.slice(PREFIX.length, dot);
  const mac = Buffer.from(text.slice(dot + 1), "base64url");
  const expected = Buffer.from(sign(body, k), "base64url");
  if (mac.length !== expected.length || !nodeCrypto().timingSafeEqual(mac, expected)) {
    return bad(
      "failed its integrity check (tampered, or issued by another server: set the same MCPBIN_STATE_KEY in every process)",
    );
  }
  let p: StatePayload;
  try {
    p = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as StatePayload;
  } catch {
    return bad("is not one this server issued");
  }
  if (typeof p !== "object" || p === null || typeof p.e !== "number" || typeof p.a !== "object" || p.a === null)
    return bad("is not one this server issued");
  if (now > p.e) return bad("has expired: call again without requestState and inputResponses");
  if (p.m !== binding.method || p.n !== binding.name || p.h !== argumentsDigest(binding.args)) {
    return bad(`was issued for another request (send it only with the ${p.m} of "${p.n}" and the same arguments)`);
  }
  return p;
}
