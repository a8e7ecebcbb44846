/** @module State a capability keeps per request, per connection or per server, without the core declaring a member for it. */

/**
 * A named place for one capability's state on an object it does not own (a request's context, a connection, the
 * server's registry): held weakly, so it goes with its owner.
 * @typeParam O - the owner (RequestContext, Connection, ServerState).
 * @typeParam T - the state.
 */
export interface Slot<O extends object, T> {
  /** The name, for messages. */
  readonly name: string;
  /** The state of `owner`, made by the slot's `init` on first use. */
  get(owner: O): T;
  /** The state of `owner` if it has one yet. */
  peek(owner: O): T | undefined;
  /** Sets the state of `owner`. */
  set(owner: O, value: T): void;
  /** Forgets the state of `owner`. */
  delete(owner: O): void;
}

/**
 * Makes a slot.
 * @param name - what it holds, for messages (e.g. `tasks: the call's task`).
 * @param init - makes the state of an owner on its first {@link Slot.get}.
 * @returns the slot; keep it in the capability's module and read it with `slot.get(ctx)`.
 * @example
 * const taskOf = slot<RequestContext, string | undefined>("tasks: the call's task id", () => undefined);
 * taskOf.set(ctx, id); // in the tasks capability's wrap of tools/call
 * taskOf.get(ctx);     // anywhere the same request is seen
 */
export function slot<O extends object, T>(name: string, init: (owner: O) => T): Slot<O, T> {
  const values = new WeakMap<O, T>();
  return {
    name,
    get(owner) {
      if (values.has(owner)) return values.get(owner) as T;
      const v = init(owner);
      values.set(owner, v);
      return v;
    },
    peek: (owner) => values.get(owner),
    set: (owner, value) => void values.set(owner, value),
    delete: (owner) => void values.delete(owner),
  };
}
