/** @module The caller of the request a gateway serves, carried to its in-process upstreams (mount()): their scope checks and `ctx.auth` see the parent's verified caller. */
import type { AuthInfo } from "../shared/auth.ts";
import type { ContentProvider } from "../content/provider.ts";
import type { RequestExtras } from "../server/connection.ts";

/** The provider methods whose last argument is the request context. */
const WITH_CONTEXT = ["listResources", "listTemplates", "read", "listPrompts", "getPrompt", "complete"] as const;

/**
 * The caller in force for one gateway (one per gateway, never shared between servers). Work started inside
 * {@link run} sees that caller; an in-memory transport reads it with {@link extras} for each line it sends. The
 * caller never leaves the process: HTTP and stdio upstreams are not given it (their transports never read it).
 */
export class CallerScope {
  // Taken when a gateway is made, not at import: a bundle that holds mount() but never calls it keeps
  // `async_hooks` out of its top-level imports.
  readonly #als = new (process.getBuiltinModule("node:async_hooks").AsyncLocalStorage)<AuthInfo | undefined>();

  /**
   * Runs `f` for a caller (undefined: for no one, e.g. the gateway's own listing at start).
   * @param caller - the verified caller of the request being served (`ctx.auth`).
   * @param f - the work.
   * @returns what `f` returns.
   */
  run<T>(caller: AuthInfo | undefined, f: () => T): T {
    return this.#als.run(caller, f);
  }

  /** The request extras for a line sent now: the caller in force, if any. */
  extras(): RequestExtras | undefined {
    const auth = this.#als.getStore();
    return auth ? { auth } : undefined;
  }

  /**
   * The provider with each method that takes a request context run for that context's caller.
   * @param p - a gateway's content provider.
   * @returns the same object.
   */
  around<P extends ContentProvider>(p: P): P {
    const methods = p as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const k of WITH_CONTEXT) {
      const f = methods[k]!;
      methods[k] = (...a: unknown[]) =>
        this.run((a[a.length - 1] as { auth?: AuthInfo } | undefined)?.auth, () => f.apply(p, a));
    }
    return p;
  }
}
