/** @module A client's side of the skills extension: listing and getting a server's skills, and reading a skill's files verified as a host must (digest, size, frontmatter). */
import type { JsonObject, McpClient } from "./client.ts";
import { parseFrontmatter } from "../skills/frontmatter.ts";
import { SKILLS_EXTENSION, SkillVerificationError, type SkillEntry } from "../skills/types.ts";

/** True when the server declared the skills extension. */
export function servesSkills(client: McpClient): boolean {
  const ext = (client.serverCapabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return ext !== undefined && ext !== null && typeof ext === "object" && SKILLS_EXTENSION in ext;
}

/**
 * Every skill a server lists (`skills/list`, all pages). Reads no file: a host must not fetch a skill's files
 * ahead of need. A legacy server may serve skills without declaring the extension (its `capabilities.extensions`
 * is a 2026-07-28 field), so one that did not declare it is asked too.
 * @returns the entries; `[]` when the server has no `skills/list` (-32601).
 * @throws OutboundError when a page fails.
 */
export async function listSkills(client: McpClient): Promise<SkillEntry[]> {
  if (!servesSkills(client)) {
    if (client.era !== "legacy") return [];
    const first = await client.request("skills/list", {}).catch((e: unknown) => {
      if ((e as { rpc?: { code?: number } })?.rpc?.code === -32601) return undefined;
      throw e;
    });
    if (!first) return [];
  }
  const out: SkillEntry[] = [];
  let cursor: unknown;
  for (let pages = 0; pages < 1000; pages++) {
    const r = await client.request("skills/list", cursor === undefined ? {} : { cursor: cursor as string });
    for (const e of (r.skills as unknown[]) ?? []) out.push(checkEntry(e));
    cursor = r.nextCursor;
    if (typeof cursor !== "string") break;
  }
  return out;
}

/**
 * One skill's entry by the URI of its SKILL.md (`skills/get`), listed or not.
 * @throws OutboundError (-32602 from the server) for a URI that is not a skill it serves.
 */
export async function getSkill(client: McpClient, uri: string): Promise<SkillEntry> {
  const r = await client.request("skills/get", { uri });
  return checkEntry(r.skill);
}

/**
 * Reads one file of a skill and verifies it against the entry: it must be listed in the entry's `resources`,
 * its bytes must have the entry's SHA-256 digest and size, and a SKILL.md's frontmatter must equal the entry's
 * field by field.
 * @param entry - from {@link listSkills} or {@link getSkill}.
 * @param uri - the file's URI (default the skill's SKILL.md).
 * @returns the file's bytes, and its text when the server sent text.
 * @throws SkillVerificationError when any check fails (the content must not be used: get the entry again).
 */
export async function readSkillFile(
  client: McpClient,
  entry: SkillEntry,
  uri: string = entry.uri,
): Promise<{ bytes: Uint8Array; text?: string }> {
  const listed = Array.isArray(entry.resources) ? entry.resources.find((r) => r.uri === uri) : undefined;
  if (!listed)
    throw new SkillVerificationError(`${uri} is not a file of skill ${entry.uri} (its entry does not list it)`);
  const r = await client.readResource(uri);
  const item =
    ((r.contents as JsonObject[] | undefined) ?? []).find((c) => c.uri === uri) ??
    (r.contents as JsonObject[] | undefined)?.[0];
  if (!item) throw new SkillVerificationError(`${uri}: the server sent no contents`);
  const text = typeof item.text === "string" ? item.text : undefined;
  const bytes = text !== undefined ? new TextEncoder().encode(text) : Buffer.from(String(item.blob ?? ""), "base64");
  if (bytes.byteLength !== listed.size)
    throw new SkillVerificationError(`${uri}: ${bytes.byteLength} bytes, its entry says ${listed.size}`);
  const digest = `sha256:${new Bun.CryptoHasher("sha256").update(bytes).digest("hex")}`;
  if (digest !== listed.digest)
    throw new SkillVerificationError(`${uri}: its digest is ${digest}, its entry says ${listed.digest}`);
  if (uri === entry.uri) {
    const { parse } = await import("yaml"); // its own chunk: an executable embeds it for this, not for the skills scan
    const fm = parseFrontmatter(text ?? new TextDecoder().decode(bytes), (t, o) => parse(t, o));
    if (!fm.ok) throw new SkillVerificationError(`${uri}: ${fm.problem}`);
    if (!sameJson(fm.data, entry.frontmatter))
      throw new SkillVerificationError(`${uri}: its frontmatter differs from its entry's`);
  }
  return text !== undefined ? { bytes, text } : { bytes };
}

/** A skill entry's shape checked as it arrives (uri, frontmatter with name and description, resources or "dynamic"). */
function checkEntry(e: unknown): SkillEntry {
  const x = e as Partial<SkillEntry> | undefined;
  if (!x || typeof x.uri !== "string" || !x.frontmatter || typeof x.frontmatter !== "object")
    throw new SkillVerificationError(`a skill entry without uri or frontmatter: ${JSON.stringify(e)?.slice(0, 200)}`);
  const name = (x.frontmatter as { name?: unknown }).name;
  const segments = x.uri.split("/");
  if (segments.at(-1) !== "SKILL.md" || segments.at(-2) !== name)
    throw new SkillVerificationError(
      `skill ${x.uri}: the last folder of its URI must be its frontmatter name ${JSON.stringify(name)}`,
    );
  return x as SkillEntry;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    typeof a !== "object" ||
    typeof b !== "object" ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}
