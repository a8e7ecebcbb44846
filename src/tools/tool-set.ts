/** @module The live tool set of one server, the tools capability's state on it (ServerState, src/server/connection.ts): its tools by name, the disabled ones, who hears of changes. */
import { isAppOnly } from "../apps/tool-ui.ts";
import type { VersionFeatures } from "../protocol/versions.ts";
import type { Connection } from "../server/connection.ts";
import type { ServerOptions } from "../server/options.ts";
import { isTool } from "./define.ts";
import { ToolDefinitionError } from "./errors.ts";
import type { Tool } from "./types.ts";

const LIST_CHANGED = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}';

/** The tools of one server; shared by every session and transport. Its members are the server's (installToolSet, src/tools/server-state.ts). */
export class ToolSet {
  /** The tools served now (enabled), by name; changed by {@link addTool}, {@link removeTool}, {@link enableTool}. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** Whether `initialize` advertises `tools.listChanged`: the `listChanged` option, or once the tool set changed. */
  listChanged: boolean;
  /**
   * Why a tool of this name may be missing, added to the `Unknown tool` error (e.g. a proxy's upstream that
   * could not be reached or signed in to, whose tools are not known): undefined when nothing is missing.
   */
  unknownToolNote: ((name: string) => string | undefined) | undefined = undefined;
  readonly #disabled = new Map<string, Tool>();
  /** Legacy sessions told `listChanged` (weakly held: a closed session is not kept alive by this). */
  readonly #watchers = new Set<WeakRef<Connection>>();
  /** 2026-07-28 listen streams that asked for `toolsListChanged`. */
  readonly #toolListeners = new Set<() => void>();

  /**
   * @param options - the server's options: `tools` (may nest arrays) and `listChanged`.
   * @throws ToolDefinitionError on a value that is not a tool, or two tools with one name.
   */
  constructor(options: ServerOptions) {
    if (options.tools !== undefined && !Array.isArray(options.tools)) {
      throw new ToolDefinitionError(
        `serve(): "tools" must be an array of tools, e.g. tools: [add]; got ${typeof options.tools === "function" ? "one tool (put it in [ ])" : typeof options.tools}`,
      );
    }
    const tools = new Map<string, Tool>();
    for (const t of (options.tools ?? []).flat()) {
      if (!isTool(t))
        throw new ToolDefinitionError(`serve(): every entry of "tools" must be made by tool(); got ${typeof t}`);
      const prev = tools.get(t.name);
      if (prev) {
        const where = (x: Tool) => (x.source ? ` (${x.source.file})` : "");
        // Tools from a project's modules carry their source and can be filtered in the config; a
        // script's tools are passed to serve() directly, where include/exclude does not exist.
        const fix =
          prev.source && t.source
            ? "rename one, or filter one out with include/exclude in the config"
            : `rename one, or pass only one of them in serve()'s "tools"`;
        throw new ToolDefinitionError(`two tools are named "${t.name}"${where(prev)}${where(t)}: ${fix}`);
      }
      tools.set(t.name, t);
    }
    this.tools = tools;
    // Advertised by default (as the official SDK and FastMCP do): a session that began before the first change
    // would otherwise never hear of addTool/removeTool/enableTool.
    this.listChanged = options.listChanged !== false;
  }

  /**
   * Adds a tool (or replaces the tool of its name), enabled.
   * @throws ToolDefinitionError when `t` is not made by tool().
   */
  addTool(t: Tool): void {
    if (!isTool(t)) throw new ToolDefinitionError(`addTool(): the argument must be made by tool(); got ${typeof t}`);
    this.#disabled.delete(t.name);
    (this.tools as Map<string, Tool>).set(t.name, t);
    this.#changed();
  }

  /** Removes a tool, enabled or not; false when there is none of that name. */
  removeTool(name: string): boolean {
    const had = (this.tools as Map<string, Tool>).delete(name) || this.#disabled.delete(name);
    if (had) this.#changed();
    return had;
  }

  /**
   * Enables or disables a tool (a disabled tool is not listed, and calling it is `Unknown tool`).
   * @throws ToolDefinitionError when there is no tool of that name.
   */
  enableTool(name: string, enabled = true): void {
    const tools = this.tools as Map<string, Tool>;
    const t = tools.get(name) ?? this.#disabled.get(name);
    if (t === undefined) throw new ToolDefinitionError(`enableTool(): the server has no tool named "${name}"`);
    if (enabled === tools.has(name)) return;
    if (enabled) {
      this.#disabled.delete(name);
      tools.set(name, t);
    } else {
      tools.delete(name);
      this.#disabled.set(name, t);
    }
    this.#changed();
  }

  /**
   * Replaces the whole tool set at once (mcpbin dev --watch): one change, one notification.
   * @param next - the new tools (made by tool(); one per name: the last wins).
   * @returns the names added, removed, and replaced by a different definition.
   */
  replaceTools(next: readonly Tool[]): { added: string[]; removed: string[]; changed: string[] } {
    const tools = this.tools as Map<string, Tool>;
    const before = new Map([...tools, ...this.#disabled]);
    const added: string[] = [];
    const changed: string[] = [];
    tools.clear();
    this.#disabled.clear();
    for (const t of next) {
      if (!isTool(t)) continue;
      const old = before.get(t.name);
      if (old === undefined) added.push(t.name);
      else if (
        JSON.stringify([old.definition.description, old.inputSchema, old.outputSchema, old.definition.annotations]) !==
          JSON.stringify([t.definition.description, t.inputSchema, t.outputSchema, t.definition.annotations]) ||
        old.definition.run.toString() !== t.definition.run.toString()
      )
        changed.push(t.name);
      tools.set(t.name, t);
    }
    const removed = [...before.keys()].filter((n) => !tools.has(n));
    this.#changed();
    return { added, removed, changed };
  }

  /**
   * Adds (or replaces) and removes tools as one change, with one notification (upstreams joining, or
   * changing their lists: src/client/front.ts). Nothing happens when nothing is given.
   * @param add - tools made by tool().
   * @param remove - names to remove (enabled or not).
   */
  changeTools(add: readonly Tool[], remove: readonly string[]): void {
    if (add.length === 0 && remove.length === 0) return;
    const tools = this.tools as Map<string, Tool>;
    for (const name of remove) {
      tools.delete(name);
      this.#disabled.delete(name);
    }
    for (const t of add) {
      if (!isTool(t))
        throw new ToolDefinitionError(`changeTools(): every tool must be made by tool(); got ${typeof t}`);
      this.#disabled.delete(t.name);
      tools.set(t.name, t);
    }
    this.#changed();
  }

  /** A legacy session that was told `listChanged` hears of every later change (`notifications/tools/list_changed`). */
  watch(conn: Connection): void {
    this.#watchers.add(new WeakRef(conn));
  }

  /**
   * Calls `fn` after every change of the tool set (a `subscriptions/listen` stream that asked for
   * `toolsListChanged`).
   * @returns a function that stops it.
   */
  onToolsChanged(fn: () => void): () => void {
    this.#toolListeners.add(fn);
    return () => void this.#toolListeners.delete(fn);
  }

  #changed(): void {
    this.listChanged = true;
    for (const fn of [...this.#toolListeners]) {
      try {
        fn();
      } catch {
        // a stream that can no longer be written to ends with its request
      }
    }
    for (const ref of this.#watchers) {
      const conn = ref.deref();
      if (conn === undefined) this.#watchers.delete(ref);
      else {
        try {
          conn.send(LIST_CHANGED, undefined);
        } catch {
          this.#watchers.delete(ref); // a connection that can no longer be written to
        }
      }
    }
  }

  /**
   * Tells the listen streams of this process that the tool list changed on another replica (the bus,
   * src/transport/feed-sources.ts); the tool set here is unchanged.
   */
  announceToolsChanged(): void {
    for (const fn of [...this.#toolListeners]) {
      try {
        fn();
      } catch {
        // a stream that can no longer be written to ends with its request
      }
    }
  }

  /** Whether a legacy session hears of tool list changes (it was told `listChanged`). */
  watches(conn: Connection): boolean {
    for (const ref of this.#watchers) if (ref.deref() === conn) return true;
    return false;
  }

  /** Forgets a session (it closed). */
  unwatch(conn: Connection): void {
    for (const ref of this.#watchers) if (ref.deref() === conn) this.#watchers.delete(ref);
  }

  /** Whether some tool is only for an app's view (`ui.visibility` without `model`): lists then differ between clients. */
  get appOnlyTools(): boolean {
    for (const t of this.tools.values()) if (isAppOnly(t.ui)) return true;
    return false;
  }

  /** Whether some tool declares OAuth `scopes`: lists then differ between callers. */
  get scopedTools(): boolean {
    for (const t of this.tools.values()) if (t.definition.scopes?.length) return true;
    return false;
  }

  /**
   * The tools a request lists: all of them for a client that declared the MCP Apps extension (`f.ui`),
   * else those the model may see (a tool with `ui.visibility: ["app"]` is left out).
   */
  listedTools(f: VersionFeatures): Tool[] {
    const all = [...this.tools.values()];
    return f.ui ? all : all.filter((t) => !isAppOnly(t.ui));
  }
}
