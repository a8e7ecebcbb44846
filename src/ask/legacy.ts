/** @module The legacy asker (2024-11-05 … 2025-11-25): each ask is one server → client request on the connection, with a time limit, cancelled with the tool's call. */
import type * as v from "valibot";
import { AskError } from "./errors.ts";
import { prepareElicit, prepareRoots, prepareSample, type PreparedAsk } from "./requests.ts";
import { prepareForward } from "./forward.ts";
import type {
  Asker,
  ElicitFormRequest,
  ElicitFormResult,
  ElicitObjectSchema,
  ElicitUrlRequest,
  ElicitUrlResult,
  Root,
  RootsRequest,
  SampleRequest,
  SampleResult,
} from "./types.ts";

/** What the legacy asker needs of the request it serves (src/server/context.ts RequestContext provides it). */
export interface LegacyChannel {
  readonly protocolVersion: string;
  readonly client: { readonly capabilities: Readonly<Record<string, unknown>> };
  /**
   * Sends a request to the client on the request's own channel (stdio writer, HTTP: its SSE stream);
   * cancelled when the request is. Rejects with an error whose `code` is rpc | timeout | cancelled | closed | unavailable.
   */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: { timeoutMs?: number },
  ): Promise<unknown>;
}

/** The asker of one legacy request. */
export class LegacyAsker implements Asker {
  /**
   * @param channel - the request being served.
   * @param timeoutMs - how long one ask waits for the client, ms (0: no limit).
   */
  constructor(
    readonly channel: LegacyChannel,
    readonly timeoutMs: number,
  ) {}

  get clientCapabilities(): Readonly<Record<string, unknown>> {
    return this.channel.client.capabilities;
  }

  elicit<S extends ElicitObjectSchema>(request: ElicitFormRequest<S>): Promise<ElicitFormResult<v.InferOutput<S>>>;
  elicit(request: ElicitUrlRequest): Promise<ElicitUrlResult>;
  elicit(request: ElicitFormRequest<ElicitObjectSchema> | ElicitUrlRequest): Promise<unknown> {
    return this.#ask(
      () => prepareElicit(request, this.channel.protocolVersion, this.clientCapabilities),
      request?.timeoutMs,
    );
  }

  sample(request: SampleRequest): Promise<SampleResult> {
    return this.#ask(
      () => prepareSample(request, this.channel.protocolVersion, this.clientCapabilities),
      request?.timeoutMs,
    ) as Promise<SampleResult>;
  }

  roots(request?: RootsRequest): Promise<Root[]> {
    return this.#ask(() => prepareRoots(request, this.clientCapabilities), request?.timeoutMs) as Promise<Root[]>;
  }

  forward(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: { readonly timeoutMs?: number },
  ): Promise<Record<string, unknown>> {
    return this.#ask(
      () => prepareForward(method, params, this.channel.protocolVersion, this.clientCapabilities),
      options?.timeoutMs,
    ) as Promise<Record<string, unknown>>;
  }

  async #ask(prepare: () => PreparedAsk, timeoutMs: number | undefined): Promise<unknown> {
    const p = prepare();
    const limit = timeoutMs ?? this.timeoutMs;
    if (typeof limit !== "number" || !(limit >= 0 && limit <= 2_147_483_647))
      throw new AskError(
        "bad-request",
        `an ask's timeoutMs must be a number of milliseconds from 0 to 2147483647; got ${String(limit)}`,
      );
    if (p.params === undefined) return p.finish({ roots: [] });
    let answer: unknown;
    try {
      answer = await this.channel.request(p.method, p.params, { timeoutMs: limit });
    } catch (e) {
      throw askErrorOf(p.method, e);
    }
    return p.finish(answer);
  }
}

/** An outbound failure as the tool sees it. */
function askErrorOf(method: string, e: unknown): AskError {
  const code = (e as { code?: unknown } | null)?.code;
  const message = (e as Error)?.message ?? String(e);
  switch (code) {
    case "rpc":
      return new AskError("client-error", message, (e as { rpc?: unknown }).rpc);
    case "timeout":
      return new AskError("timeout", message);
    case "cancelled":
    case "closed":
      return new AskError("cancelled", message);
    case "unavailable":
      return new AskError("unsupported", message);
    default:
      return new AskError("client-error", `${method}: ${message}`);
  }
}
