/** @module memoryBus(): the in-process Bus, the default: a change reaches the clients of this process only. */
import { logLine } from "../runtime/log-name.ts";
import type { Bus } from "../shared/store.ts";

/**
 * A {@link Bus} within one process: a message reaches every subscriber of its channel, synchronously and in
 * the order published; a subscriber that throws does not stop the others.
 * @returns the bus.
 */
export function memoryBus(): Bus {
  const channels = new Map<string, Set<(message: string) => void>>();
  return {
    async publish(channel, message) {
      for (const fn of [...(channels.get(channel) ?? [])]) {
        try {
          fn(message);
        } catch (e) {
          logLine(`a bus subscriber failed: ${(e as Error)?.message ?? e}`);
        }
      }
    },
    async subscribe(channel, onMessage) {
      let set = channels.get(channel);
      if (!set) channels.set(channel, (set = new Set()));
      const fn = (m: string) => onMessage(m);
      set.add(fn);
      return async () => {
        set.delete(fn);
        if (set.size === 0) channels.delete(channel);
      };
    },
  };
}
