/** @module The check of the client's OAuth options (`connect({ url, auth })`, `upstreams: { x: { url, oauth } }`, `mcpbin proxy --oauth`; their shape is src/shared/oauth-client.ts). */
import type { OAuthClientOptions } from "../shared/oauth-client.ts";
import { unknownKey } from "../shared/option-keys.ts";

/** Every key of {@link OAuthClientOptions}; any other is refused (the compiler checks that none is missing). */
const OAUTH_CLIENT_KEYS = [
  "clientId",
  "clientSecret",
  "clientPrivateKey",
  "clientMetadataUrl",
  "scopes",
  "resource",
  "tokenStore",
  "grant",
  "authorize",
  "redirectPort",
  "clientName",
  "maxStepUps",
  "fetch",
] as const satisfies readonly (keyof OAuthClientOptions)[];
const OAUTH_CLIENT_KEYS_COMPLETE: [Exclude<keyof OAuthClientOptions, (typeof OAUTH_CLIENT_KEYS)[number]>] extends [
  never,
]
  ? true
  : never = true;
void OAUTH_CLIENT_KEYS_COMPLETE;

/**
 * The first key of OAuth client options that is not an option (`clientid`), as a message naming the nearest one.
 * @param o - the options (an object).
 * @param prefix - where they were given, e.g. `upstreams.github.oauth.`.
 * @returns undefined, or the message.
 */
export function oauthKeyProblem(o: object, prefix: string): string | undefined {
  return unknownKey(o, OAUTH_CLIENT_KEYS, prefix);
}

/**
 * The options of an `auth` value.
 * @param auth - `"oauth"` or options.
 * @returns the options.
 * @throws TypeError on anything else, or an unknown key.
 */
export function oauthOptionsOf(auth: unknown): OAuthClientOptions {
  if (auth === "oauth" || auth === true) return {};
  if (typeof auth === "object" && auth !== null && !Array.isArray(auth)) {
    const o = auth as OAuthClientOptions;
    const unknown = oauthKeyProblem(o, "auth.");
    if (unknown) throw new TypeError(unknown);
    if (o.grant !== undefined && o.grant !== "authorization_code" && o.grant !== "client_credentials")
      throw new TypeError(`auth.grant must be "authorization_code" or "client_credentials"`);
    if (o.grant === "client_credentials" && (!o.clientId || (!o.clientSecret && !o.clientPrivateKey))) {
      throw new TypeError(
        `auth.grant "client_credentials" needs auth.clientId and auth.clientSecret (or auth.clientPrivateKey)`,
      );
    }
    if (o.clientMetadataUrl !== undefined && !/^https:\/\//.test(o.clientMetadataUrl))
      throw new TypeError(`auth.clientMetadataUrl must be an https URL`);
    return o;
  }
  throw new TypeError(
    `auth must be "oauth" or an object { clientId?, clientMetadataUrl?, scopes?, tokenStore? }; got ${JSON.stringify(auth)}`,
  );
}
