/** @module The server's registry: its identity, options and middleware, and what each registered capability keeps on it (its tools, content, apps, …), made once and shared by every session and transport. */
import { META } from "../protocol/meta.ts";
import { FEATURES, MODERN_VERSION, type VersionFeatures } from "../protocol/versions.ts";
import { ToolDefinitionError } from "../shared/definition-error.ts";
import type { ServerHandle } from "../shared/server-handle.ts";
import type { ServerState } from "./connection.ts";
import type { Chain } from "./method-spec.ts";
import { compose } from "./middleware.ts";
import { resolveOptions, type ResolvedOptions, type ServerOptions } from "./options.ts";
import { registeredServerState } from "./register.ts";

/**
 * The members each capability keeps on the server (ServerState, as each capability folder augments it: the tools
 * capability's `tools`, `addTool()`, …; the content capability's `content`; …), made by its `server` hook.
 */
export interface Registry extends ServerState {}

/** Registry and identity of one server; shared by every session and transport. */
export class Registry {
  readonly options: ResolvedOptions;
  /** The server object (createServer()) this registry belongs to: what `ctx.server` is. */
  server: ServerHandle | undefined;
  /** The middleware chain, when the options gave any (the pipeline calls it instead of invoke()). */
  readonly middleware: Chain | undefined;
  /** `_meta` of every modern result. */
  readonly modernMeta: Record<string, unknown>;
  /** {@link modernMeta} serialized once (the direct serialization of plain text results uses it). */
  readonly modernMetaJson: string;

  /**
   * @param options - server options.
   * @throws ToolDefinitionError on a bad name, version, option or middleware; and what each registered
   *   capability's `server` hook throws (src/server/register.ts), in registration order: ToolDefinitionError on a
   *   value that is not a tool or two tools with one name, AppDefinitionError on two apps with one URI or a tool
   *   linking to an app that is not served, ContentDefinitionError on a bad or duplicate resource, template or prompt.
   */
  constructor(options: ServerOptions) {
    if (typeof options?.name !== "string" || options.name === "")
      throw new ToolDefinitionError('serve(): "name" must be a non-empty string');
    if (typeof options.version !== "string" || options.version === "")
      throw new ToolDefinitionError('serve(): "version" must be a non-empty string');
    this.options = resolveOptions(options);
    this.server = undefined;
    const mw = options.middleware;
    if (mw !== undefined && !Array.isArray(mw))
      throw new ToolDefinitionError(
        `createServer(): "middleware" must be an array of functions (request, next) => result`,
      );
    this.middleware = mw !== undefined && mw.length > 0 ? compose(mw) : undefined;
    this.modernMeta = { [META.serverInfo]: this.serverInfo(FEATURES.get(MODERN_VERSION)!) };
    this.modernMetaJson = JSON.stringify(this.modernMeta);
    for (const make of registeredServerState()) make(this, options);
  }

  /** `serverInfo.name`. */
  get name(): string {
    return this.options.name;
  }

  /** `serverInfo.version`. */
  get version(): string {
    return this.options.version;
  }

  /** `serverInfo` (MCP Implementation) as one version defines it. */
  serverInfo(f: VersionFeatures): Record<string, unknown> {
    const o = this.options;
    return o.title !== undefined && f.implementationTitle
      ? { name: o.name, title: o.title, version: o.version }
      : { name: o.name, version: o.version };
  }
}
