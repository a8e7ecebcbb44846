/** @module Reversible URI rewriting of upstream resources behind one gateway: `<server>+<scheme>:…`, `ui://<server>/…`, and the URIs inside results. */
import type { JsonObject } from "./client.ts";
import { sha256Hex } from "./naming.ts";

/** Characters an upstream's token may hold: valid in a URI scheme (after a letter) and in a host name. */
const TOKEN_CHARS = /[^a-z0-9.-]/g;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * Maps each upstream's URIs to URIs of ours and back, exactly (docs/servers.md):
 * `file:///x` of `docs` becomes `docs+file:///x`; `ui://x/v` becomes `ui://docs/x/v`, so MCP Apps views
 * still resolve as `ui://` resources; `skill://x/SKILL.md` becomes `skill://docs/x/SKILL.md` (the upstream is a
 * prefix folder, the skill's name stays the last one). The token of a server is its name in lower case with characters
 * outside `a-z 0-9 . -` made `-` (and a leading `s` when it does not start with a letter); two names
 * that give one token are told apart by six hex digits of their SHA-256. With rewriting off (one
 * upstream), URIs pass as they are and every URI belongs to that upstream.
 */
export class UriRewriter {
  readonly #token = new Map<string, string>();
  readonly #server = new Map<string, string>();
  readonly #only: string | undefined;

  /**
   * @param servers - the upstreams' names, in configuration order.
   * @param on - whether to rewrite (off: the first server owns every URI).
   */
  constructor(
    servers: readonly string[],
    readonly on: boolean,
  ) {
    this.#only = on ? undefined : servers[0];
    const taken = new Set<string>();
    for (const s of servers) {
      let t = s.toLowerCase().replace(TOKEN_CHARS, "-");
      if (!/^[a-z]/.test(t)) t = `s${t}`;
      if (taken.has(t)) t = `${t}-${sha256Hex(s).slice(0, 6)}`;
      taken.add(t);
      this.#token.set(s, t);
      this.#server.set(t, s);
    }
  }

  /** The token of a server's URIs (e.g. `docs`). */
  token(server: string): string {
    return this.#token.get(server) ?? server;
  }

  /** An upstream's URI (or URI template) as ours. */
  out(server: string, uri: string): string {
    if (!this.on || typeof uri !== "string") return uri;
    const t = this.token(server);
    if (/^ui:\/\//i.test(uri)) return `ui://${t}/${uri.slice(5)}`;
    // A skill's URI keeps its name as the last folder (skills extension): the upstream becomes a prefix folder.
    if (/^skill:\/\//i.test(uri)) return `skill://${t}/${uri.slice(8)}`;
    return `${t}+${uri}`;
  }

  /** Our URI back to its upstream and the URI there; undefined when no upstream's token starts it. */
  back(uri: string): { server: string; uri: string } | undefined {
    if (typeof uri !== "string") return undefined;
    if (!this.on) return this.#only === undefined ? undefined : { server: this.#only, uri };
    if (/^ui:\/\//i.test(uri)) {
      const rest = uri.slice(5);
      const slash = rest.indexOf("/");
      const server = slash > 0 ? this.#server.get(rest.slice(0, slash).toLowerCase()) : undefined;
      return server === undefined ? undefined : { server, uri: `ui://${rest.slice(slash + 1)}` };
    }
    if (/^skill:\/\//i.test(uri)) {
      const rest = uri.slice(8);
      const slash = rest.indexOf("/");
      const server = slash > 0 ? this.#server.get(rest.slice(0, slash).toLowerCase()) : undefined;
      return server === undefined ? undefined : { server, uri: `skill://${rest.slice(slash + 1)}` };
    }
    const m = SCHEME.exec(uri);
    const plus = m ? m[1]!.indexOf("+") : -1;
    if (plus <= 0) return undefined;
    const server = this.#server.get(uri.slice(0, plus).toLowerCase());
    return server === undefined ? undefined : { server, uri: uri.slice(plus + 1) };
  }

  /**
   * The URIs inside one content block (`resource_link`, an embedded `resource`) rewritten; other blocks as they are.
   * @param server - the upstream that sent it.
   */
  block(server: string, b: unknown): unknown {
    if (!this.on || typeof b !== "object" || b === null) return b;
    const o = b as JsonObject;
    if (o.type === "resource_link" && typeof o.uri === "string") return { ...o, uri: this.out(server, o.uri) };
    if (o.type === "resource" && typeof o.resource === "object" && o.resource !== null) {
      const r = o.resource as JsonObject;
      return typeof r.uri === "string" ? { ...o, resource: { ...r, uri: this.out(server, r.uri) } } : o;
    }
    return o;
  }

  /** A tool's or result's `_meta` with its MCP Apps view links (`ui.resourceUri`, `ui/resourceUri`) rewritten. */
  meta(server: string, meta: unknown): unknown {
    if (!this.on || typeof meta !== "object" || meta === null) return meta;
    const m = { ...(meta as JsonObject) };
    if (typeof m["ui/resourceUri"] === "string") m["ui/resourceUri"] = this.out(server, m["ui/resourceUri"] as string);
    const ui = m.ui as JsonObject | undefined;
    if (typeof ui === "object" && ui !== null && typeof ui.resourceUri === "string")
      m.ui = { ...ui, resourceUri: this.out(server, ui.resourceUri) };
    return m;
  }
}
