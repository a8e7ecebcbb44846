/** @module The loopback redirect listener of a native client's sign-in (RFC 8252 §7.3): 127.0.0.1, a free port, one redirect. */

/** A listener waiting for the authorization server's redirect. */
export interface LoopbackListener {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUri: string;
  /** The redirect's URL (with `code`, `state`, `iss` or `error`), once the browser arrives. */
  readonly redirected: Promise<URL>;
  stop(): void;
}

/**
 * Listens on 127.0.0.1 for one redirect to `/callback`; other paths get 404. The page tells the person
 * to go back to the terminal; nothing of the query is echoed.
 * @param port - the port (default 0: a free one; the redirect URI then carries it).
 * @param timeoutMs - how long to wait for the browser (default 5 minutes).
 * @returns the listener.
 */
export function loopbackListener(port = 0, timeoutMs = 300_000): LoopbackListener {
  let resolve!: (u: URL) => void;
  let reject!: (e: Error) => void;
  const redirected = new Promise<URL>((res, rej) => ((resolve = res), (reject = rej)));
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    fetch(req) {
      const url = new URL(req.url);
      if (url.pathname !== "/callback") return new Response("Not Found\n", { status: 404 });
      resolve(url);
      const ok = !url.searchParams.has("error");
      const text = ok
        ? "Signed in. You can close this window and go back to the terminal."
        : "Sign-in was refused. You can close this window; the terminal says why.";
      return new Response(`<!doctype html><meta charset="utf-8"><title>mcpbin</title><p>${text}</p>\n`, {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    },
  });
  const timer = setTimeout(() => reject(new Error(`no sign-in within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  redirected.catch(() => {}).finally(() => clearTimeout(timer));
  return {
    redirectUri: `http://127.0.0.1:${server.port}/callback`,
    redirected,
    stop() {
      clearTimeout(timer);
      server.stop(true);
    },
  };
}

/**
 * The port of a kept loopback redirect URI, so that a registered client signs in again on the same one.
 * @param uri - a redirect URI kept with a registration, if any.
 * @returns its port for `http://127.0.0.1:PORT/…`, else 0 (any free port).
 */
export function redirectPortOf(uri: string | undefined): number {
  const m = uri ? /^http:\/\/127\.0\.0\.1:(\d+)\//.exec(uri) : null;
  return m ? Number(m[1]) : 0;
}

/**
 * The listener on the port asked for, else (taken) on a free one (a new registration follows).
 * @param port - the port to try first (0: any free port).
 * @returns the listener.
 */
export function listenPreferring(port: number): LoopbackListener {
  try {
    return loopbackListener(port);
  } catch {
    return loopbackListener(0);
  }
}
