/** @module The client's public async functions as src/index.ts exports them: each loads its module on first call, so a server's start never evaluates the client (docs/benchmarks.md). */
import type { ConnectOptions, ConnectTarget } from "./connect.ts";
import type { McpClient } from "./client.ts";
import type { UpstreamToolsOptions } from "./upstream-tools.ts";
import type { Tool } from "../tools/types.ts";
import type { ContentProvider } from "../content/provider.ts";
import type { SkillEntry } from "../skills/types.ts";

/**
 * Connects to an MCP server and completes the handshake: `server/discover` (2026-07-28) when the server
 * speaks it, else `initialize` at the newest legacy version it accepts (MCP 2026-07-28 basic/versioning "Backward Compatibility with Initialization-Based Versions"). A stdio
 * server that exits on the probe (some do on anything before `initialize`) is started once more and
 * initialized. The handshake is bounded by `startTimeoutMs` (default 10 s). The client's code is loaded
 * on the first call (src/client/connect.ts does the work).
 * @param target - `{command, args?, env?, cwd?}`, `{url, headers?}`, a ClientTransport, or a server made by
 *   createServer() (in this process, over an in-memory pair: src/client/in-memory.ts).
 * @param opts - see {@link ConnectOptions}.
 * @returns the connected client.
 * @throws OutboundError when the server cannot be started or reached, or its handshake fails or times out (the message names it).
 * @throws TypeError when the target is malformed (a `command` or `url` that is not a non-empty string, `args` not strings).
 */
export async function connect(target: ConnectTarget, opts: ConnectOptions = {}): Promise<McpClient> {
  return (await import("./connect.ts")).connect(target, opts);
}

/**
 * Another server's tools, ready to serve beside your own (`serve({ tools: [...mine, ...await upstreamTools(gh, { prefix: "gh" })] })`).
 * Every page of `tools/list` is read once, now; see passthroughTool for what a call does
 * (src/client/upstream-tools.ts does the work).
 * @param client - a connected client ({@link connect}).
 * @param opts - prefix, include/exclude globs, timeoutMs.
 * @returns one tool per upstream tool that passed the filters; a tool whose schemas cannot be used is
 *   left out with one line on stderr naming it.
 * @throws OutboundError when listing fails.
 */
export async function upstreamTools(client: McpClient, opts: UpstreamToolsOptions = {}): Promise<Tool[]> {
  return (await import("./upstream-tools.ts")).upstreamTools(client, opts);
}

/**
 * Another server's resources, templates and prompts, ready to serve beside your own
 * (`serve({ tools, resources: [...mine, await upstreamContent(gh)] })`): URIs and prompt names as the server has
 * them, every field kept, projected onto each client's version; reads and prompts that ask are relayed to
 * your client (give connect() the `capabilities` it may ask for). Lists are asked for each time. Its
 * `resources/updated` (for URIs subscribed to), `resources/list_changed` and `prompts/list_changed` reach your
 * clients (from a 2026-07-28 server on `subscriptions/listen` streams opened for them)
 * (src/client/upstream-content.ts does the work).
 * @param client - a connected client.
 * @returns a provider for `serve()`'s `resources` (or `prompts`), its prompt names read once now.
 * @throws OutboundError when listing the prompts fails.
 */
export async function upstreamContent(client: McpClient): Promise<ContentProvider> {
  return (await import("./upstream-content.ts")).upstreamContent(client);
}

/**
 * Every skill a server lists (skills extension, `skills/list`, all pages); `[]` when it did not declare the
 * extension. Reads no file (src/client/skills.ts does the work).
 * @throws OutboundError when a page fails; SkillVerificationError for an entry whose URI does not end in its name.
 */
export async function listSkills(client: McpClient): Promise<SkillEntry[]> {
  return (await import("./skills.ts")).listSkills(client);
}

/**
 * One skill's entry by the URI of its SKILL.md (`skills/get`), listed or not.
 * @throws OutboundError (the server's -32602) for a URI that is not one of its skills.
 */
export async function getSkill(client: McpClient, uri: string): Promise<SkillEntry> {
  return (await import("./skills.ts")).getSkill(client, uri);
}

/**
 * Reads one file of a skill (default its SKILL.md), verified against the entry as a host must: listed in it,
 * the same SHA-256 digest and size, and for SKILL.md the same frontmatter, field by field.
 * @returns the bytes, and the text when the server sent text.
 * @throws SkillVerificationError when a check fails: do not use the content; get the entry again.
 */
export async function readSkillFile(
  client: McpClient,
  entry: SkillEntry,
  uri?: string,
): Promise<{ bytes: Uint8Array; text?: string }> {
  return (await import("./skills.ts")).readSkillFile(client, entry, uri);
}
