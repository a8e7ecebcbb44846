/** @module The Store and Bus interfaces: what tasks, shared sessions and the scale-out bus keep state through (memory, file, Redis, or a user's own). */

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
