// Taps an SDK client transport (v1 or v2) without changing its class: every response the client
// receives is validated against the official schema of the version in force for its request (the
// `_meta` claim's, else the negotiated one), and every progress notification against ProgressNotification.
import { assertValidNotification, assertValidResponse } from "../helpers/schema.ts";
import { intercept } from "../helpers/sdk-tap.ts";

type Msg = Record<string, any>;
type Transport = Parameters<typeof intercept>[0];

/** What {@link tap} saw: validated responses (method, version) and progress notifications (the request's token, and the params). */
export type Tapped = { method: string; version: string }[] & { progress: { sentToken: unknown; params: Msg }[] };

/** Validates what `t` delivers; returns the record of it ({@link Tapped}). */
export function tap(t: Transport): Tapped {
  // Compile the progress validators now: compiling inside the SDK's message loop delays it long enough
  // for SDK v1 to settle the call before it has run the handlers of the progress notifications before it.
  for (const v of ["2025-11-25", "2026-07-28"])
    assertValidNotification(v, "ProgressNotification", {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 1, progress: 1 },
    });
  let negotiated: string | undefined;
  const seen = Object.assign([] as { method: string; version: string }[], {
    progress: [] as { sentToken: unknown; params: Msg }[],
  });
  const sent = intercept(t, (m, req) => {
    if (req && ("result" in m || "error" in m)) {
      const claim = req.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
      if (req.method === "initialize") negotiated = m.result?.protocolVersion;
      const version = claim ?? negotiated ?? "2025-11-25";
      assertValidResponse(version, req.method, m);
      seen.push({ method: req.method, version });
    } else if (m.method === "notifications/progress") {
      assertValidNotification(negotiated ?? "2026-07-28", "ProgressNotification", m);
      const req = [...sent.values()].find((r) => r.params?._meta?.progressToken === m.params.progressToken);
      seen.progress.push({ sentToken: req?.params?._meta?.progressToken, params: m.params });
    }
  });
  return seen;
}
