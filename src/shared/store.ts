/** @module The Store and Bus interfaces: what tasks, shared sessions and the scale-out bus keep state through (memory, file, Redis, or a user's own); a shared shape (src/shared/), imports nothing. */

/**
 * A key-value store of strings (JSON text, as a rule), with an optional time to live per key. The memory,
 * file and Redis stores of `src/state/` implement it, and so may a user's own store. Every method may be
 * called concurrently; a store does not interpret the values.
 */
export interface Store {
  /**
   * Reads one key.
   * @param key - the key.
   * @returns its value, or undefined when it is absent or its time to live has ended.
   */
  get(key: string): Promise<string | undefined>;
  /**
   * Writes one key (replacing its value and its time to live); resolves once the write is durable for that store.
   * @param key - the key.
   * @param value - the value.
   * @param options - `ttlMs`: milliseconds until the key is forgotten; absent: kept until deleted.
   */
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  /**
   * Removes one key; removing an absent key is no error.
   * @param key - the key.
   */
  delete(key: string): Promise<void>;
  /**
   * The keys that start with a prefix (live ones only), in no particular order.
   * @param prefix - the prefix ("" for all).
   * @returns the keys.
   */
  keys(prefix: string): Promise<string[]>;
  /**
   * Adds one to an integer counter (absent counts as 0), atomically for that store.
   * @param key - the counter's key.
   * @param options - `ttlMs`: set the counter's time to live (on every increment).
   * @returns the value after the increment.
   */
  incr(key: string, options?: { ttlMs?: number }): Promise<number>;
  /**
   * Takes one token from a token bucket, atomically for that store (what `rateLimit` shares between replicas): a
   * bucket holds at most `capacity` tokens, starts full and refills continuously at `perMs` tokens a millisecond.
   * Optional: without it, `rateLimit` counts in each process.
   * @param key - the bucket's key (forgotten once the bucket would be full again).
   * @param capacity - tokens at most (> 0).
   * @param perMs - tokens added per millisecond (> 0).
   * @returns 0 when a token was taken; else the milliseconds until one will be there (none was taken).
   */
  take?(key: string, capacity: number, perMs: number): Promise<number>;
  /**
   * Adds a member to a bounded set, or touches it, atomically for that store (the legacy session quota across
   * replicas): members untouched for `ttlMs` are dropped, then while more than `max` remain the least recently
   * claimed other members are removed. Optional: without it, the quota holds in each process.
   * @param key - the set's key (forgotten `ttlMs` after its last claim).
   * @param member - the member.
   * @param max - members kept at most (≥ 1).
   * @param ttlMs - a member's time to live from its last claim.
   * @returns the members removed to make room, oldest first.
   */
  claim?(key: string, member: string, max: number, ttlMs: number): Promise<string[]>;
  /**
   * Removes a member of a set that {@link claim} keeps; an absent one is no error.
   * @param key - the set's key.
   * @param member - the member.
   */
  release?(key: string, member: string): Promise<void>;
  /** Releases the store's resources (a connection, timers); the store is not used afterwards. */
  close?(): Promise<void>;
}

/**
 * A publish/subscribe channel between the processes that share a store: messages are strings, delivered
 * to every subscriber of the channel at the moment of publishing (no replay).
 */
export interface Bus {
  /**
   * Sends one message to the channel's current subscribers.
   * @param channel - the channel's name.
   * @param message - the message.
   */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Listens on a channel.
   * @param channel - the channel's name.
   * @param onMessage - called with each message, in the order published.
   * @returns resolves once the subscription is in force, with a function that ends it.
   */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  /** Releases the bus's resources. */
  close?(): Promise<void>;
}
