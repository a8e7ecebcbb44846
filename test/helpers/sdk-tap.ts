/** @module Taps an official SDK client's transport so every response it receives is validated against the official schema. */
import { assertValidResponse } from "./schema.ts";

type Msg = Record<string, any>;
/** The part of an SDK client transport the tap wraps. */
export type Transport = { send(m: Msg, o?: unknown): Promise<void>; onmessage?: (m: Msg, extra?: unknown) => void };

/**
 * Taps a client transport without changing its class (the v2 client probes in a sibling process only
 * for the exact base StdioClientTransport): every response the client receives is validated against
 * the schema of the version in force for its request — the `_meta` claim's, else the negotiated one.
 * `open`: against the schema as published (extra properties allowed), e.g. for a legacy session whose
 * `initialize` result declares an extension (`capabilities.extensions` is defined from 2026-07-28 on).
 */
export function tap(t: Transport, o: { open?: boolean } = {}) {
  let negotiated: string | undefined;
  const seen: Msg[] = [];
  intercept(t, (m, req) => {
    if (req && ("result" in m || "error" in m)) {
      const claim = req.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
      if (req.method === "initialize") negotiated = m.result?.protocolVersion;
      const version = claim ?? negotiated ?? "2025-11-25";
      assertValidResponse(version, req.method, m, o);
      seen.push({ method: req.method, version, msg: m });
    }
  });
  return seen;
}

/**
 * Wraps a client transport in place: `onReceive(message, request?)` sees every message the client receives
 * before the client does, with the request it answers (by id) when it is a response to one the client sent.
 * @returns the requests sent so far, by id.
 */
export function intercept(t: Transport, onReceive: (m: Msg, req: Msg | undefined) => void): Map<unknown, Msg> {
  const sent = new Map<unknown, Msg>();
  const send = t.send.bind(t);
  t.send = (m, o) => {
    if ("id" in m && "method" in m) sent.set(m.id, m);
    return send(m, o);
  };
  let handler: Transport["onmessage"];
  Object.defineProperty(t, "onmessage", {
    configurable: true,
    get: () => handler,
    set: (fn) => {
      handler =
        fn &&
        ((m: Msg, extra?: unknown) => {
          onReceive(m, sent.get(m.id));
          fn(m, extra);
        });
    },
  });
  return sent;
}
