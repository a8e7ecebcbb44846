// The client in front of a hub or proxy, for the client tests: an official SDK v1 or v2 client over stdio to a
// command, every response validated by the tap, the command's stderr collected; and the progress check on the wire.
import { afterEach, expect } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { pumpLines, stderrLines } from "./lines.ts";
import { tap, type Tapped } from "./tap.ts";

/** Options of {@link v1Front} and {@link v2Front}. */
export interface FrontOptions {
  /** The child's environment (default the SDK's). */
  readonly env?: Record<string, string>;
  /** The client's name (default "v1-client" / "v2-client"). */
  readonly name?: string;
  /** Where the client's close() goes, for the test's afterEach. */
  readonly closers: (() => Promise<unknown> | void)[];
}

/** Starts `command` under the SDK v1 client (legacy) and connects. */
export async function v1Front(command: readonly string[], o: FrontOptions) {
  const transport = new StdioV1({
    command: command[0]!,
    args: command.slice(1),
    stderr: "pipe",
    ...(o.env ? { env: o.env } : {}),
  });
  const seen = tap(transport as never);
  const stderr = stderrLines();
  void pumpLines(transport.stderr as never, stderr);
  const client = new ClientV1({ name: o.name ?? "v1-client", version: "1.0.0" });
  await client.connect(transport);
  o.closers.push(() => client.close());
  return { client, seen, stderr };
}

/** Starts `command` under the SDK v2 client (version negotiation "auto") and connects; the version must be 2026-07-28. */
export async function v2Front(command: readonly string[], o: FrontOptions) {
  const transport = new StdioV2({
    command: command[0]!,
    args: command.slice(1),
    stderr: "pipe",
    ...(o.env ? { env: o.env } : {}),
  });
  const seen = tap(transport as never);
  const stderr = stderrLines();
  void pumpLines(transport.stderr as never, stderr);
  const client = new ClientV2(
    { name: o.name ?? "v2-client", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(transport);
  o.closers.push(() => client.close());
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  return { client, seen, stderr };
}

/**
 * Progress as the client received it on the wire: every notification carries the client's own token. (The SDK
 * clients run progress handlers a microtask late and may drop those read in the same chunk as the response,
 * so the wire is what is checked.)
 * @returns the progress values, in order.
 */
export function progressOnWire(seen: Tapped): number[] {
  for (const p of seen.progress) expect(p.params.progressToken).toBe(p.sentToken as never);
  return seen.progress.map((p) => p.params.progress);
}

/**
 * A clients' servers file (`{ "mcpServers": … }`, what `mcpbin proxy --servers` and `upstreams` read) in a
 * fresh temporary folder.
 * @returns the file's path.
 */
export function serversFile(mcpServers: Record<string, unknown>, prefix = "mcpbin-servers-"): string {
  const file = join(mkdtempSync(join(tmpdir(), prefix)), "servers.json");
  writeFileSync(file, JSON.stringify({ mcpServers }));
  return file;
}

/** The test file's list of things to close, run (in order) after each test. */
export function closedAfterEach(): (() => Promise<unknown> | void)[] {
  const closers: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });
  return closers;
}
