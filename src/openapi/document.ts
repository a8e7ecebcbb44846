/** @module Loading an OpenAPI document: read, parse (JSON/YAML), bundle external $refs, validate, upgrade to 3.1. */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { baseUriOf, localizeIdRefs } from "./ids.ts";

/** A parsed OpenAPI document (3.1 after {@link loadDocument}). */
export type OpenApiDocument = Record<string, unknown>;

/** Where a document comes from: a file path, an http(s) URL (only with `allowNetwork`), or a parsed document. */
export type OpenApiSource = string | URL | OpenApiDocument;

/** A document that cannot be used; the message names the place and the reason. */
export class OpenApiError extends Error {
  readonly code = "OPENAPI_DOCUMENT";
  constructor(message: string) {
    super(message);
    this.name = "OpenApiError";
  }
}

/** How {@link loadDocument} may reach outside the document. */
export interface LoadOptions {
  /** Fetch a URL source and network `$ref`s (only to `allowHosts`). Default false. */
  readonly allowNetwork?: boolean;
  /** Host names (`api.example.com`, or `host:port`) network `$ref`s may point to; required with `allowNetwork` for refs. */
  readonly allowHosts?: readonly string[];
  /** Skip the structural validation (the document was validated before, e.g. at build time). Default false. */
  readonly trusted?: boolean;
}

/** The largest document or referenced file read over the network, bytes. */
const MAX_FETCH_BYTES = 64 * 1024 * 1024;

/**
 * Reads an OpenAPI 3.0 or 3.1 document and returns it as 3.1 with every `$ref` local: refs to the document's
 * own schemas by `$id`/`$anchor` become pointers ({@link localizeIdRefs}), file refs are bundled in (under
 * `x-ext`), network refs only with `allowNetwork` and a host on `allowHosts`.
 * 3.0 is upgraded by `@scalar/openapi-parser` (`nullable` → a `"null"` type, `example` → `examples`, …).
 * @param source - a path, a URL, or a parsed document (not changed: a copy is used).
 * @param o - see {@link LoadOptions}.
 * @returns the 3.1 document, and where it came from (for messages).
 * @throws OpenApiError with `file:line:col: reason` for a parse error, the JSON pointer and reason for
 *   an invalid document, or the `$ref` that is not allowed or does not resolve.
 */
export async function loadDocument(
  source: OpenApiSource,
  o: LoadOptions = {},
): Promise<{ document: OpenApiDocument; origin: string }> {
  let doc: OpenApiDocument;
  let origin: string;
  if (typeof source === "string" || source instanceof URL) {
    const s = String(source);
    if (/^https?:\/\//i.test(s)) {
      if (!o.allowNetwork)
        throw new OpenApiError(
          `${s}: reading a document from the network needs allowNetwork: true (or download it and pass the file)`,
        );
      origin = s;
      doc = await parseText(await fetchText(s), s);
    } else {
      origin = resolve(s.startsWith("file:") ? new URL(s).pathname : s);
      let text: string;
      try {
        text = readFileSync(origin, "utf8");
      } catch (e) {
        throw new OpenApiError(
          `${s}: cannot read the document (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
        );
      }
      doc = await parseText(text, s);
    }
  } else if (typeof source === "object" && source !== null && !Array.isArray(source)) {
    origin = resolve("openapi.json");
    doc = structuredClone(source);
  } else {
    throw new OpenApiError(
      `openapiTools: give a path, a URL or a parsed document, not ${source === null ? "null" : typeof source}`,
    );
  }
  const label =
    origin.endsWith("openapi.json") && typeof source === "object" && !(source instanceof URL)
      ? "the document"
      : String(source);
  const version = typeof doc.openapi === "string" ? doc.openapi : undefined;
  if (version === undefined || !/^3\.[01]\./.test(version)) {
    const found =
      typeof doc.swagger === "string"
        ? `Swagger ${doc.swagger}`
        : version
          ? `OpenAPI ${version}`
          : 'no "openapi" field';
    throw new OpenApiError(
      `${label}: OpenAPI 3.0 or 3.1 is supported, found ${found}${doc.swagger ? " (convert it to 3.x first, e.g. with swagger2openapi)" : ""}`,
    );
  }
  localizeIdRefs(doc, baseUriOf(origin));
  if (externalRefs(doc).length > 0) doc = await bundleRefs(doc, origin, label, o);
  const scalar = await import("@scalar/openapi-parser");
  if (!o.trusted) {
    const r = await scalar.validate(structuredClone(doc));
    if (!r.valid) {
      const e = r.errors?.[0] as { message?: string; path?: string | string[] } | undefined;
      const at = Array.isArray(e?.path)
        ? `/${e.path.map((k) => String(k).replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`
        : e?.path;
      throw new OpenApiError(
        `${label}: invalid OpenAPI document${at ? ` at ${at}` : ""}: ${e?.message ?? "unknown reason"}${(r.errors?.length ?? 0) > 1 ? ` (and ${r.errors!.length - 1} more)` : ""}`,
      );
    }
  }
  const up = version.startsWith("3.0.") ? (scalar.upgrade(doc).specification as OpenApiDocument) : doc;
  return { document: up, origin };
}

/** Parses JSON or YAML text (`yaml` is loaded only for YAML); a parse error names the line and column. */
export async function parseText(text: string, label: string): Promise<OpenApiDocument> {
  let value: unknown;
  const t = text.trimStart();
  if (t.startsWith("{")) {
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined; // reparsed below for the place of the error
    }
  }
  if (value === undefined) {
    const { parseDocument } = await import("yaml");
    const d = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
    const err = d.errors[0];
    if (err) {
      const at = err.linePos?.[0];
      throw new OpenApiError(
        `${label}${at ? `:${at.line}:${at.col}` : ""}: cannot parse the document: ${err.message.split("\n")[0]}`,
      );
    }
    value = d.toJS({ maxAliasCount: 1000 });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new OpenApiError(`${label}: the document must be an object (a JSON or YAML mapping)`);
  return value as OpenApiDocument;
}

/** Every `$ref` that is not local (`#…`), with the JSON pointer where it stands. */
function externalRefs(doc: unknown): { ref: string; at: string }[] {
  const out: { ref: string; at: string }[] = [];
  const walk = (n: unknown, at: string): void => {
    if (Array.isArray(n)) n.forEach((x, i) => walk(x, `${at}/${i}`));
    else if (typeof n === "object" && n !== null) {
      for (const [k, v] of Object.entries(n)) {
        if (k === "$ref" && typeof v === "string" && !v.startsWith("#")) out.push({ ref: v, at: at || "/" });
        else walk(v, `${at}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`);
      }
    }
  };
  walk(doc, "");
  return out;
}

async function fetchText(url: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    throw new OpenApiError(`${url}: cannot fetch the document (${(e as Error).message})`);
  }
  if (!res.ok) throw new OpenApiError(`${url}: fetching the document gave HTTP ${res.status}`);
  const buf = await res.arrayBuffer();
  if (buf.byteLength > MAX_FETCH_BYTES) throw new OpenApiError(`${url}: the document is over ${MAX_FETCH_BYTES} bytes`);
  return new TextDecoder().decode(buf);
}

function hostAllowed(url: string, hosts: readonly string[]): boolean {
  try {
    const u = new URL(url);
    return hosts.some((h) => h.toLowerCase() === u.host.toLowerCase() || h.toLowerCase() === u.hostname.toLowerCase());
  } catch {
    return false;
  }
}

/** Brings file refs (and allowed network refs) into the document with `@scalar/json-magic`'s bundler. */
async function bundleRefs(
  doc: OpenApiDocument,
  origin: string,
  label: string,
  o: LoadOptions,
): Promise<OpenApiDocument> {
  const isUrl = /^https?:\/\//i.test(origin);
  for (const { ref, at } of externalRefs(doc)) {
    const target = isUrl ? new URL(ref, origin).href : ref;
    if (/^https?:\/\//i.test(target) && !(o.allowNetwork && hostAllowed(target, o.allowHosts ?? []))) {
      throw new OpenApiError(
        `${label} at ${at}: "$ref": ${JSON.stringify(ref)} points to the network; network $refs are read only with allowNetwork: true and the host in allowHosts (or inline the schema)`,
      );
    }
  }
  const { bundle } = await import("@scalar/json-magic/bundle");
  const { readFiles, parseJson, parseYaml } = await import("@scalar/json-magic/bundle/plugins/node");
  const network = {
    type: "loader" as const,
    validate: (v: string) => /^https?:\/\//i.test(v),
    exec: async (v: string) => {
      if (!(o.allowNetwork && hostAllowed(v, o.allowHosts ?? []))) return { ok: false as const };
      try {
        const raw = await fetchText(v);
        return { ok: true as const, data: await parseText(raw, v), raw };
      } catch {
        return { ok: false as const };
      }
    },
  };
  let out: OpenApiDocument;
  try {
    out = (await bundle(doc, {
      plugins: [network, readFiles({ basePath: isUrl ? undefined : dirname(origin) }), parseJson(), parseYaml()],
      treeShake: false,
      origin,
    } as Parameters<typeof bundle>[1])) as OpenApiDocument;
  } catch (e) {
    throw new OpenApiError(`${label}: cannot resolve an external $ref: ${(e as Error).message}`);
  }
  const left = externalRefs(out)[0];
  if (left)
    throw new OpenApiError(
      `${label} at ${left.at}: "$ref": ${JSON.stringify(left.ref)} does not resolve (no such file or document, or not allowed)`,
    );
  return out;
}
