/** @module A fetch that signs in: the kept token on every request, sign-in on a 401, step-up on a 403 insufficient_scope (with a limit), then the request once more. */
import { OAuthSession } from "./client-session.ts";
import type { OAuthClientOptions } from "../shared/oauth-client.ts";
import { bearerChallenge } from "./www-authenticate.ts";

/**
 * Wraps fetch for one MCP endpoint: adds `Authorization: Bearer <token>` (never to another origin), and
 * when the server answers 401 signs in and sends the request again; on 403 `insufficient_scope` signs in
 * for the scopes held plus those asked (at most `maxStepUps` times per request, default 2), MCP 2025-11-25
 * basic/authorization "Scope Challenge Handling". The request bodies this client sends are strings, so
 * they can be sent again.
 * @param server - the MCP endpoint.
 * @param o - the OAuth options.
 * @param base - the fetch underneath.
 * @returns the fetch, and its session (for tests and `mcpbin auth`).
 */
export function oauthFetch(
  server: string | URL,
  o: OAuthClientOptions = {},
  base: typeof fetch = fetch,
): { fetch: typeof fetch; session: OAuthSession } {
  const session = new OAuthSession(server, o);
  const origin = session.server.origin;
  const send = async (input: RequestInfo | URL, init: RequestInit | undefined): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    if (url.origin === origin) {
      const token = await session.token();
      if (token) headers.set("authorization", `Bearer ${token}`);
    }
    return base(input, { ...init, headers });
  };
  const f = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    let res = await send(input, init);
    if (res.status === 401) {
      const challenge = bearerChallenge(res);
      await res.body?.cancel().catch(() => {});
      await session.signIn(challenge);
      res = await send(input, init);
    }
    for (let n = 0; res.status === 403 && n < (o.maxStepUps ?? 2); n++) {
      const challenge = bearerChallenge(res);
      if (challenge?.error !== "insufficient_scope") break;
      await res.body?.cancel().catch(() => {});
      await session.signIn(challenge, true);
      res = await send(input, init);
    }
    return res;
  };
  return { fetch: f as typeof fetch, session };
}
