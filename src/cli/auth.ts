/** @module mcpbin auth list|logout: the OAuth sign-ins kept in the user's config folder (never their tokens). */
import { canonicalResource } from "../auth/client-discovery.ts";
import { configDir, fileTokenStore } from "../auth/token-store.ts";
import type { TokenStore } from "../shared/oauth-client.ts";
import { CliError } from "./errors.ts";

/**
 * Runs `mcpbin auth list` or `mcpbin auth logout URL|--all`.
 * @param args - the arguments after `auth`.
 * @param store - the store (default the config folder's files).
 * @returns the exit code.
 * @throws CliError (exit 2) on a wrong use.
 */
export async function authCommand(args: readonly string[], store: TokenStore = fileTokenStore()): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "list") {
    if (rest.length > 0) throw new CliError("auth list takes no arguments", 2);
    const entries = await store.list();
    if (entries.length === 0) {
      process.stdout.write(`no sign-ins kept (${configDir()}/oauth)\n`);
      return 0;
    }
    for (const e of entries.sort((a, b) => a.resource.localeCompare(b.resource))) {
      const t = e.tokens;
      const expires =
        t?.expires_at === undefined
          ? ""
          : t.expires_at * 1000 < Date.now()
            ? ", expired"
            : `, expires ${new Date(t.expires_at * 1000).toISOString()}`;
      const state = t
        ? `signed in${t.scope ? ` (${t.scope})` : ""}${expires}${t.refresh_token ? ", refreshable" : ""}`
        : "registered, not signed in";
      const client = e.client ? `client ${e.client.client_id} (${e.client.kind})` : "no client";
      process.stdout.write(`${e.resource}\n  issuer ${e.issuer}, ${client}: ${state}\n`);
    }
    return 0;
  }
  if (sub === "logout") {
    const all = rest.length === 1 && rest[0] === "--all";
    if (!all && rest.length !== 1) throw new CliError("auth logout needs the server's URL, or --all", 2);
    let resource: string | undefined;
    if (!all) {
      try {
        resource = canonicalResource(new URL(rest[0]!));
      } catch {
        throw new CliError(`auth logout: ${JSON.stringify(rest[0])} is not a URL`, 2);
      }
    }
    const gone = (await store.list()).filter((e) => all || e.resource === resource);
    for (const e of gone) await store.delete(e.issuer, e.resource);
    process.stdout.write(
      gone.length === 0
        ? `nothing kept for ${resource ?? "any server"}\n`
        : `signed out of ${gone.map((e) => e.resource).join(", ")}\n`,
    );
    return 0;
  }
  throw new CliError('auth needs "list" or "logout URL|--all"', 2);
}
