/** @module The HTTP handler's bookkeeping per request: one access-log line and the in-flight count a shutdown waits on, each exactly once. */
import { logLine } from "../runtime/log-name.ts";

/** One request being answered. */
export interface Exchange {
  readonly t0: number;
  readonly httpMethod: string;
  /** The MCP method, for the access log (`-` until known; `batch`, `response`, or `?` for an odd name). */
  mcpMethod: string;
  finished: boolean;
}

/** The requests in flight, and the access log when it is on (`http.accessLog`). */
export class Exchanges {
  #inflight = 0;
  #idleWaiters: (() => void)[] = [];

  /** @param accessLog - write one line per answered request on stderr. */
  constructor(readonly accessLog: boolean) {}

  /** Counts a request in. */
  begin(req: Request): Exchange {
    this.#inflight++;
    return { t0: performance.now(), httpMethod: req.method, mcpMethod: "-", finished: false };
  }

  /**
   * Counts a request out (once: later calls do nothing) and logs it, except `/healthz`: a balancer's or
   * Kubernetes' probes every few seconds would bury the calls.
   * @param x - the request.
   * @param path - its path, without the query.
   * @param status - the HTTP status it was answered with.
   */
  finish(x: Exchange, path: string, status: number): void {
    if (x.finished) return;
    x.finished = true;
    if (--this.#inflight === 0) {
      const w = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const f of w) f();
    }
    if (this.accessLog && path !== "/healthz")
      logLine(
        `http ${new Date().toISOString()} ${x.httpMethod} ${path} ${x.mcpMethod} ${status} ${(performance.now() - x.t0).toFixed(1)}ms`,
      );
  }

  /** Resolves when no request is in flight. */
  idle(): Promise<void> {
    return this.#inflight === 0 ? Promise.resolve() : new Promise<void>((r) => this.#idleWaiters.push(r));
  }
}
