/** @module TaskAsker: `ctx.elicit`, `ctx.sample`, `ctx.roots` of a tool running as a task — each ask prepared as in a plain call, then an outstanding request of the task (input_required) until the client answers. */
import type * as v from "valibot";
import type { AskKind } from "../ask/answers.ts";
import { askKindOf, prepareForward } from "../ask/forward.ts";
import { prepareElicit, prepareRoots, prepareSample, type PreparedAsk } from "../ask/requests.ts";
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
} from "../ask/types.ts";
import type { LiveRun } from "./live.ts";

/**
 * The asker of a task's run. The checks (the client's capabilities in the version in force, the schema) and
 * the reading of answers are those of a plain call (src/ask/requests.ts); only the way to the client differs:
 * 2026-07-28 the task's `inputRequests` answered by `tasks/update`, 2025-11-25 a request sent through `tasks/result`.
 */
export class TaskAsker implements Asker {
  /**
   * @param run - the task's run.
   * @param version - the protocol version of the creating call.
   * @param clientCapabilities - the client's capabilities at the creating call.
   */
  constructor(
    readonly run: LiveRun,
    readonly version: string,
    readonly clientCapabilities: Readonly<Record<string, unknown>>,
  ) {}

  elicit<S extends ElicitObjectSchema>(request: ElicitFormRequest<S>): Promise<ElicitFormResult<v.InferOutput<S>>>;
  elicit(request: ElicitUrlRequest): Promise<ElicitUrlResult>;
  elicit(request: ElicitFormRequest<ElicitObjectSchema> | ElicitUrlRequest): Promise<unknown> {
    return this.#ask(() => prepareElicit(request, this.version, this.clientCapabilities), "elicit");
  }

  sample(request: SampleRequest): Promise<SampleResult> {
    return this.#ask(
      () => prepareSample(request, this.version, this.clientCapabilities),
      "sample",
    ) as Promise<SampleResult>;
  }

  roots(request?: RootsRequest): Promise<Root[]> {
    return this.#ask(() => prepareRoots(request, this.clientCapabilities), "roots") as Promise<Root[]>;
  }

  forward(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: { readonly key?: string },
  ): Promise<Record<string, unknown>> {
    return this.#ask(
      () => prepareForward(method, params, this.version, this.clientCapabilities, options?.key),
      askKindOf(method) ?? "elicit",
    ) as Promise<Record<string, unknown>>;
  }

  async #ask(prepare: () => PreparedAsk, kind: AskKind): Promise<unknown> {
    const p = prepare();
    if (p.params === undefined) return p.finish({ roots: [] });
    const answer = await this.run.ask(kind, p.key, p.method, p.params);
    return p.finish(answer);
  }
}
