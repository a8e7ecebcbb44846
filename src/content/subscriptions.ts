/** @module Change delivery of one connection (a slot of the connection, {@link subscriptionsOf}): legacy `resources/subscribe` and list changes, and 2026-07-28 `subscriptions/listen` streams. */
import { notificationLine, type RequestId } from "../protocol/jsonrpc.ts";
import { META } from "../protocol/meta.ts";
import type { Connection } from "../server/context.ts";
import { MAX_SUBSCRIPTIONS } from "../server/methods/subscriptions-listen.ts";
import { slot } from "../server/slot.ts";
import { onContentChange, type ContentChange } from "./common.ts";

export { MAX_SUBSCRIPTIONS };

/** What one listen stream receives (the acknowledged filter). */
export interface ListenFilter {
  readonly resourcesListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
}

/**
 * The subscriptions of one connection. It listens to content changes only while it has something to
 * deliver, and stops on {@link close}.
 */
export class Subscriptions {
  readonly #uris = new Set<string>();
  #listChanges = false;
  #promptChanges = false;
  readonly #streams = new Map<
    RequestId,
    { readonly list: boolean; readonly prompts: boolean; readonly uris: ReadonlySet<string> }
  >();
  #stop: (() => void) | undefined;

  /**
   * @param send - writes a line to the client; `relatedId` names a listen stream (HTTP routes it there).
   * @param dropped - called for each legacy subscription still held when the connection ends (a content
   *   provider's upstream subscription is released then).
   */
  constructor(
    readonly send: (line: string, relatedId: RequestId | undefined) => void,
    readonly dropped?: (uri: string) => void,
  ) {}

  /** Legacy subscriptions held. */
  get size(): number {
    return this.#uris.size;
  }

  /** Whether a legacy session hears of resource list changes. */
  get watchesList(): boolean {
    return this.#listChanges;
  }

  /** Whether a legacy session hears of prompt list changes. */
  get watchesPrompts(): boolean {
    return this.#promptChanges;
  }

  /** The URIs of the legacy subscriptions held. */
  uris(): string[] {
    return [...this.#uris];
  }

  /** Whether this session holds a legacy subscription to a URI. */
  has(uri: string): boolean {
    return this.#uris.has(uri);
  }

  /** Legacy `resources/subscribe`: `notifications/resources/updated` for this URI from now on. @returns false when the limit is reached. */
  subscribe(uri: string): boolean {
    if (!this.#uris.has(uri) && this.#uris.size >= MAX_SUBSCRIPTIONS) return false;
    this.#uris.add(uri);
    this.#listen();
    return true;
  }

  /** Legacy `resources/unsubscribe`. */
  unsubscribe(uri: string): void {
    this.#uris.delete(uri);
    this.#idle();
  }

  /** A legacy session whose resource list can change gets `notifications/resources/list_changed`. */
  listChanges(): void {
    this.#listChanges = true;
    this.#listen();
  }

  /** A legacy session whose prompt list can change (a provider's) gets `notifications/prompts/list_changed`. */
  promptChanges(): void {
    this.#promptChanges = true;
    this.#listen();
  }

  /**
   * Opens a 2026-07-28 listen stream: later notifications carry `_meta[subscriptionId]` = its id.
   * @returns a function that closes it.
   */
  open(id: RequestId, filter: ListenFilter): () => void {
    this.#streams.set(id, {
      list: filter.resourcesListChanged === true,
      prompts: filter.promptsListChanged === true,
      uris: new Set(filter.resourceSubscriptions ?? []),
    });
    this.#listen();
    return () => {
      this.#streams.delete(id);
      this.#idle();
    };
  }

  /** Stops every delivery (the connection ended). */
  close(): void {
    if (this.dropped) for (const uri of this.#uris) this.dropped(uri);
    this.#uris.clear();
    this.#streams.clear();
    this.#listChanges = false;
    this.#promptChanges = false;
    this.#idle();
  }

  #listen(): void {
    this.#stop ??= onContentChange((c) => this.#deliver(c));
  }

  #idle(): void {
    if (this.#uris.size === 0 && this.#streams.size === 0 && !this.#listChanges && !this.#promptChanges && this.#stop) {
      this.#stop();
      this.#stop = undefined;
    }
  }

  #deliver(c: ContentChange): void {
    if (c.kind === "prompts") {
      if (this.#promptChanges) this.send('{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}', undefined);
      for (const [id, s] of this.#streams)
        if (s.prompts)
          this.send(
            notificationLine("notifications/prompts/list_changed", { _meta: { [META.subscriptionId]: id } }),
            id,
          );
      return;
    }
    const updated = c.kind === "resource";
    if (updated ? this.#uris.has(c.uri!) : this.#listChanges) {
      this.send(
        updated
          ? notificationLine("notifications/resources/updated", { uri: c.uri })
          : '{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}',
        undefined,
      );
    }
    for (const [id, s] of this.#streams) {
      if (updated ? !s.uris.has(c.uri!) : !s.list) continue;
      const meta = { [META.subscriptionId]: id };
      this.send(
        notificationLine(
          updated ? "notifications/resources/updated" : "notifications/resources/list_changed",
          updated ? { uri: c.uri, _meta: meta } : { _meta: meta },
        ),
        id,
      );
    }
  }
}

/**
 * The subscriptions of a connection, made on first use. A subscription to a provider's URI (an upstream's) is
 * released upstream when the connection ends (the content capability's `closed`, src/content/register.ts).
 */
export const subscriptionsOf = slot<Connection, Subscriptions>("content: the connection's subscriptions", (conn) => {
  const content = conn.registry.content;
  return new Subscriptions(
    (line, relatedId) => conn.send(line, relatedId),
    content.providers.length > 0 ? (uri) => content.providerOf(uri)?.unsubscribe(uri) : undefined,
  );
});
