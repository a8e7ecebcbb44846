/** @module The keys of option objects whose owners read them only when used (`http.auth` once HTTP starts, an upstream's `oauth` when it signs in), checked when the server is made: a typo fails the build's check run and every start. */
import { oauthKeyProblem } from "../auth/client-options.ts";
import { authKeyProblem } from "../auth/options.ts";
import type { ServerOptions } from "../shared/server-options.ts";
import { ToolDefinitionError } from "../tools/errors.ts";

const isObject = (x: unknown): x is object => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * Refuses an unknown key of `http.auth` or of an upstream's `oauth`, also when the server runs over stdio (an
 * `http.auth.isuer` would otherwise leave an HTTP server of the same executable open, or fail only under `--http`).
 * @param o - the server's options.
 * @throws ToolDefinitionError naming the key, the key it probably meant and the allowed keys.
 */
export function checkNestedKeys(o: ServerOptions): void {
  const auth = isObject(o.http) ? (o.http as { auth?: unknown }).auth : undefined;
  const problem = isObject(auth) ? authKeyProblem(auth) : undefined;
  if (problem) throw new ToolDefinitionError(`serve(): ${problem}`);
  for (const [name, entry] of Object.entries(o.upstreams ?? {})) {
    const oauth = (entry as { oauth?: unknown } | undefined)?.oauth;
    const p = isObject(oauth) ? oauthKeyProblem(oauth, `upstreams.${name}.oauth.`) : undefined;
    if (p) throw new ToolDefinitionError(`serve(): ${p}`);
  }
}
