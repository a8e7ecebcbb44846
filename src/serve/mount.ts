/** @module mount(): another in-process server's tools, resources, templates, prompts and apps served under a prefix, live, until unmounted. */
import type { Registry } from "../server/registry.ts";
import { registryOf, type McpServer, type MountOptions, type MountedServer } from "../server/mcp-server.ts";
import { ToolDefinitionError } from "../tools/errors.ts";

const PREFIX = /^[A-Za-z0-9-]{1,32}$/;
const KEYS = new Set(["prefix", "include", "exclude"]);

/**
 * Mounts `child` on the server of `registry`: its tools become `<prefix>__<tool>`, its resources' URIs are
 * rewritten reversibly and its prompts named like its tools (as `mcpbin proxy` does for its upstreams), its
 * apps' `ui://` links follow, and its list changes reach the parent's clients. Calls go through the child's
 * own pipeline over an in-memory pair, so the child's middleware runs inside the parent's.
 * @param registry - the parent's registry.
 * @param child - a server made by createServer(), not yet serving on its own (it may serve elsewhere too).
 * @param options - `prefix` (1–32 letters, digits, hyphens), and `include`/`exclude` globs of its tool names.
 * @returns the mount, once the child has answered and its tools joined.
 * @throws ToolDefinitionError for a bad prefix, an unknown option, a child that is not a createServer() server
 *   or is the parent itself, or a prefix already mounted.
 */
export async function mountServer(
  registry: Registry,
  child: McpServer,
  options: MountOptions,
  mounted: Map<string, MountedServer>,
): Promise<MountedServer> {
  const label = `mount(${JSON.stringify(options?.prefix)})`;
  for (const k of Object.keys(options ?? {}))
    if (!KEYS.has(k))
      throw new ToolDefinitionError(`${label}: unknown option "${k}" (allowed: prefix, include, exclude)`);
  const prefix = options?.prefix;
  if (typeof prefix !== "string" || !PREFIX.test(prefix))
    throw new ToolDefinitionError(
      `${label}: "prefix" must be 1 to 32 letters, digits or hyphens (it starts every tool name: <prefix>__<tool>)`,
    );
  let childRegistry: Registry;
  try {
    childRegistry = registryOf(child);
  } catch {
    throw new ToolDefinitionError(`${label}: the server to mount must be made by createServer()`);
  }
  if (childRegistry === registry) throw new ToolDefinitionError(`${label}: a server cannot mount itself`);
  if (mounted.has(prefix))
    throw new ToolDefinitionError(
      `${label}: a server is already mounted under "${prefix}": unmount it first or choose another prefix`,
    );
  // Its tool set is live for the parent: the in-memory connection is told of every change.
  childRegistry.listChanged = true;
  const { createGateway } = await import("../client/gateway.ts");
  const gateway = createGateway(
    { [prefix]: { server: child, include: options.include, exclude: options.exclude, startTimeoutMs: 10_000 } },
    { naming: "prefix", reserved: [...registry.tools.keys()], restart: false },
  );
  await gateway.start();
  const report = gateway.report[0];
  if (report?.status !== "up") {
    await gateway.close();
    throw new Error(`${label}: the mounted server did not answer: ${report?.error ?? "unknown error"}`);
  }
  registry.changeTools(gateway.tools, []);
  const off = gateway.onChange((c) => registry.changeTools(c.added, c.removed));
  registry.content.addProvider(gateway.content);
  let gone = false;
  const m: MountedServer = {
    prefix,
    get tools() {
      return gone ? [] : gateway.tools.map((t) => t.name);
    },
    async unmount() {
      if (gone) return;
      gone = true;
      mounted.delete(prefix);
      off();
      registry.changeTools(
        [],
        gateway.tools.map((t) => t.name),
      );
      registry.content.removeProvider(gateway.content);
      await gateway.close();
    },
  };
  mounted.set(prefix, m);
  return m;
}
