/** @module References through `$id` and `$anchor` (OpenAPI 3.1 Schema Objects, JSON Schema 2020-12) turned into the local JSON pointers the rest of the OpenAPI code reads. */
import { escapeJsonPointer } from "@scalar/json-magic/helpers/escape-json-pointer";

// Our own, because no maintained library resolves them inside an OpenAPI document (checked 2026-12, against
// the Swagger Petstore 3.1 document): @scalar/json-magic 0.19.1 and @scalar/openapi-parser 0.29.22 (the newest) keep
// them as written and report them as external references they cannot find; @apidevtools/json-schema-ref-parser
// 16.0.6 leaves them unresolved with external resolution off and would otherwise fetch `/api/v31/…` as a URL or file
// (it implements JSON Reference, not `$id`); @hyperjump/json-schema 1.18 resolves `$id` and `$anchor` when it
// validates a schema, but indexes no resource under an OpenAPI document's `components` when given the document, and
// gives pointers relative to each embedded resource, not to the document the converter reads. Tested against the
// real document (test/openapi/petstore-31.test.ts).

type Node = Record<string, unknown>;

/** A base URI as the document's retrieval URI: an http(s) URL as is, a file path as a `file:` URL. */
export function baseUriOf(origin: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(origin) && !/^[a-z]:[\\/]/i.test(origin)) return origin;
  return `file://${encodeURI(origin.replaceAll("\\", "/").replace(/^(?=[a-z]:)/i, "/"))}`;
}

function isNode(x: unknown): x is Node {
  return typeof x === "object" && x !== null;
}

function resolveUri(ref: string, base: string): URL | undefined {
  try {
    return new URL(ref, base);
  } catch {
    return undefined;
  }
}

/** The local pointer (`#/a/b`) of a path of keys: `~` and `/` escaped, `%` encoded (readers decode the fragment). */
function pointerOf(path: readonly string[]): string {
  return path.length === 0 ? "#" : `#/${path.map((k) => escapeJsonPointer(k).replaceAll("%", "%25")).join("/")}`;
}

/**
 * Rewrites every `$ref` that names a schema resource of the document itself — by `$id` (relative ones resolved
 * against the enclosing resource's base, as JSON Schema 2020-12 does), by `$id` plus `#anchor` or `#/json/pointer`,
 * or a `#/…` fragment inside an embedded resource — to a pointer from the document's root. The bundler of
 * `@scalar/json-magic` keeps such references as written and `@scalar/openapi-parser`'s validation reports them
 * as external references it cannot find, so they are made local first. References to anything else are left
 * as they are (external ones are bundled or refused after this).
 * @param doc - the document; changed in place.
 * @param base - the document's base URI ({@link baseUriOf}).
 * @returns how many references were rewritten.
 */
export function localizeIdRefs(doc: Node, base: string): number {
  const resources = new Map<string, string[]>(); // absolute URI without fragment → path
  const anchors = new Map<string, string[]>(); // absolute URI#anchor → path
  const bases = new WeakMap<Node, string>(); // a node with an $id → the base URI it sets
  const seen = new WeakSet<Node>();
  const path: string[] = []; // the keys down to the node being visited (copied only for an $id or $anchor)
  const collect = (n: unknown, b: string): void => {
    if (!isNode(n) || seen.has(n)) return;
    seen.add(n);
    let here = b;
    if (!Array.isArray(n) && typeof n.$id === "string") {
      const u = resolveUri(n.$id, b);
      if (u) {
        u.hash = "";
        here = u.href;
        if (!resources.has(here)) resources.set(here, [...path]);
      }
    }
    if (!Array.isArray(n) && typeof n.$anchor === "string") anchors.set(`${here}#${n.$anchor}`, [...path]);
    if (here !== b) bases.set(n, here);
    for (const k in n) {
      if (k === "enum" || k === "const" || k === "examples" || k === "example") continue;
      const v = (n as Node)[k];
      if (typeof v !== "object" || v === null) continue;
      path.push(k);
      collect(v, here);
      path.pop();
    }
  };
  const start = resolveUri(base, "file:///")?.href ?? base;
  collect(doc, start);
  if (resources.size === 0 && anchors.size === 0) return 0;
  resources.set(start.split("#")[0]!, resources.get(start.split("#")[0]!) ?? []);

  let rewritten = 0;
  const visited = new WeakSet<Node>();
  const rewrite = (n: unknown, b: string): void => {
    if (!isNode(n) || visited.has(n)) return;
    visited.add(n);
    const here = bases.get(n) ?? b; // a node with its own $id is a new base for itself and what it holds
    if (!Array.isArray(n) && typeof n.$ref === "string") {
      const local = target(n.$ref, here);
      if (local !== undefined && local !== n.$ref) {
        n.$ref = local;
        rewritten++;
      }
    }
    for (const k in n) {
      if (k === "enum" || k === "const" || k === "examples" || k === "example") continue;
      const v = (n as Node)[k];
      if (typeof v === "object" && v !== null) rewrite(v, here);
    }
  };
  const target = (ref: string, b: string): string | undefined => {
    const u = resolveUri(ref, b);
    if (!u) return undefined;
    const fragment = decodeURIComponent(u.hash.slice(1));
    u.hash = "";
    const at = resources.get(u.href);
    if (at === undefined) return undefined;
    if (fragment === "") return pointerOf(at);
    if (fragment.startsWith("/")) {
      const rest = fragment
        .slice(1)
        .split("/")
        .map((k) => k.replaceAll("~1", "/").replaceAll("~0", "~"));
      const path = [...at, ...rest];
      // A fragment inside an embedded resource that names nothing there is read from the document's root (what
      // OpenAPI tools commonly mean by `#/components/…`).
      return valueAt(doc, path) === undefined ? undefined : pointerOf(path);
    }
    const anchored = anchors.get(`${u.href}#${fragment}`);
    return anchored === undefined ? undefined : pointerOf(anchored);
  };
  rewrite(doc, start);
  return rewritten;
}

function valueAt(doc: unknown, path: readonly string[]): unknown {
  let n = doc;
  for (const k of path) {
    if (!isNode(n)) return undefined;
    n = (n as Node)[k];
  }
  return n;
}
