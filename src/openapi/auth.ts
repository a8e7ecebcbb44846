/** @module Credentials for an API's securitySchemes, read from environment variables at call time and applied per operation. */
import { OpenApiError, type OpenApiDocument } from "./document.ts";
import { deref } from "./schema.ts";

/** Where one credential comes from: an environment variable (read at each call) or a fixed value. */
export type Credential = { readonly env: string } | { readonly value: string };

/**
 * Credentials by securityScheme name. apiKey, HTTP bearer, oauth2 and openIdConnect schemes take one
 * credential (the key or the token); HTTP basic takes `{ username, password }`.
 * `"convention"` names the variables after the scheme ({@link conventionalEnv}).
 */
export type AuthOptions =
  | Readonly<Record<string, Credential | { readonly username: Credential; readonly password: Credential }>>
  | "convention";

/** A scheme as the request builder applies it. */
export interface Scheme {
  readonly name: string;
  readonly kind: "apiKey" | "bearer" | "basic";
  /** For apiKey: where and under which name. */
  readonly in?: "header" | "query" | "cookie";
  readonly param?: string;
  /** The variables (or values) it reads. */
  readonly credential?: Credential;
  readonly username?: Credential;
  readonly password?: Credential;
}

/** What a scheme adds to one request. */
export interface Applied {
  readonly headers: [string, string][];
  readonly query: [string, string][];
  readonly cookies: [string, string][];
}

/** `petstore_auth` → `PETSTORE_AUTH`. */
function envPart(scheme: string): string {
  return scheme
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
}

/**
 * The variable names `mcpbin openapi` reads for a scheme: `API_KEY_<S>` (apiKey), `BEARER_TOKEN_<S>`
 * (HTTP bearer, oauth2, openIdConnect), `BASIC_USERNAME_<S>` and `BASIC_PASSWORD_<S>` (HTTP basic),
 * where `<S>` is the scheme name in upper snake case.
 */
export function conventionalEnv(scheme: string, kind: Scheme["kind"]): string[] {
  const s = envPart(scheme);
  if (kind === "apiKey") return [`API_KEY_${s}`];
  if (kind === "bearer") return [`BEARER_TOKEN_${s}`];
  return [`BASIC_USERNAME_${s}`, `BASIC_PASSWORD_${s}`];
}

/**
 * The document's security schemes with their credentials.
 * @throws OpenApiError when `auth` names a scheme the document does not define, or gives the wrong shape.
 */
export function schemesOf(doc: OpenApiDocument, auth: AuthOptions | undefined): Map<string, Scheme> {
  const defs = ((doc.components as Record<string, unknown> | undefined)?.securitySchemes ?? {}) as Record<
    string,
    unknown
  >;
  const out = new Map<string, Scheme>();
  for (const [name, raw] of Object.entries(defs)) {
    const s = deref(doc, raw, `components.securitySchemes.${name}`);
    let kind: Scheme["kind"] | undefined;
    if (s.type === "apiKey") kind = "apiKey";
    else if (s.type === "http" && String(s.scheme).toLowerCase() === "basic") kind = "basic";
    else if (
      (s.type === "http" && String(s.scheme).toLowerCase() === "bearer") ||
      s.type === "oauth2" ||
      s.type === "openIdConnect"
    )
      kind = "bearer";
    if (!kind) continue;
    const given = auth === "convention" ? undefined : auth?.[name];
    const env = conventionalEnv(name, kind);
    let scheme: Scheme = {
      name,
      kind,
      in: kind === "apiKey" ? (s.in as Scheme["in"]) : undefined,
      param: kind === "apiKey" ? String(s.name) : undefined,
    };
    if (kind === "basic") {
      const g = given as { username?: Credential; password?: Credential } | undefined;
      if (g && (!g.username || !g.password))
        throw new OpenApiError(
          `auth.${name}: the scheme is HTTP basic: give { username: { env: "…" }, password: { env: "…" } }`,
        );
      if (g) scheme = { ...scheme, username: g.username, password: g.password };
      else if (auth === "convention") scheme = { ...scheme, username: { env: env[0]! }, password: { env: env[1]! } };
    } else {
      const g = given as Credential | undefined;
      if (g && !("env" in g) && !("value" in g))
        throw new OpenApiError(`auth.${name}: give { env: "VARIABLE" } (or { value: "…" })`);
      if (g) scheme = { ...scheme, credential: g };
      else if (auth === "convention") scheme = { ...scheme, credential: { env: env[0]! } };
    }
    out.set(name, scheme);
  }
  if (auth && auth !== "convention") {
    for (const name of Object.keys(auth)) {
      if (!out.has(name))
        throw new OpenApiError(
          `auth.${name}: the document has no apiKey, http, oauth2 or openIdConnect security scheme named ${JSON.stringify(name)} (it has: ${[...out.keys()].join(", ") || "none"})`,
        );
    }
  }
  return out;
}

function read(c: Credential | undefined, env: Record<string, string | undefined>): string | undefined {
  if (!c) return undefined;
  const v = "value" in c ? c.value : env[c.env];
  return v === undefined || v === "" ? undefined : v;
}

/** The variables a scheme reads, for messages. */
export function variablesOf(s: Scheme): string[] {
  return [s.credential, s.username, s.password]
    .filter((c): c is { env: string } => !!c && "env" in c)
    .map((c) => c.env);
}

/**
 * What the first satisfiable alternative of an operation's requirements adds to its request.
 * @param security - the operation's requirements (alternatives).
 * @param env - the environment to read (process.env at call time).
 * @returns the additions, or `missing` naming the variables to set when no alternative can be met
 *   and credentials are not optional.
 */
export function applySecurity(
  security: readonly Readonly<Record<string, readonly string[]>>[],
  schemes: ReadonlyMap<string, Scheme>,
  env: Record<string, string | undefined>,
): Applied & { missing?: string } {
  const none: Applied = { headers: [], query: [], cookies: [] };
  if (security.length === 0) return none;
  const wants: string[] = [];
  for (const alt of security) {
    const names = Object.keys(alt);
    if (names.length === 0) return none; // `{}`: anonymous access is one of the alternatives
    const applied: Applied = { headers: [], query: [], cookies: [] };
    let ok = true;
    for (const n of names) {
      const s = schemes.get(n);
      const value =
        s?.kind === "basic" ? basic(read(s.username, env), read(s.password, env)) : read(s?.credential, env);
      if (!s || value === undefined) {
        ok = false;
        if (s) wants.push(variablesOf(s).length > 0 ? variablesOf(s).join(" and ") : `auth.${n}`);
        break;
      }
      if (s.kind === "apiKey")
        (s.in === "query" ? applied.query : s.in === "cookie" ? applied.cookies : applied.headers).push([
          s.param!,
          value,
        ]);
      else applied.headers.push(["authorization", s.kind === "basic" ? `Basic ${value}` : `Bearer ${value}`]);
    }
    if (ok) return applied;
  }
  return { ...none, missing: [...new Set(wants)].join(" or ") || "credentials for this operation's security schemes" };
}

function basic(user: string | undefined, pass: string | undefined): string | undefined {
  return user === undefined || pass === undefined ? undefined : Buffer.from(`${user}:${pass}`).toString("base64");
}
