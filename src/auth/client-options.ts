/** @module The check of the client's OAuth options (`connect({ url, auth })`, `upstreams: { x: { url, oauth } }`, `mcpbin proxy --oauth`; their shape is src/shared/oauth-client.ts). */
import type { OAuthClientOptions } from "../shared/oauth-client.ts";

/**
 * The options of an `auth` value.
 * @param auth - `"oauth"` or options.
 * @returns the options.
 * @throws TypeError on anything else.
 */
export function oauthOptionsOf(auth: unknown): OAuthClientOptions {
  if (auth === "oauth" || auth === true) return {};
  if (typeof auth === "object" && auth !== null && !Array.isArray(auth)) {
    const o = auth as OAuthClientOptions;
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
