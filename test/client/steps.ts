// The check of a relayed three-step progress.
import { expect } from "bun:test";

/** The server's writer replaces queued progress of a call by its newer progress: the steps arrive in order, the last one always. */
export function expectSteps(values: number[]): void {
  expect(values.length).toBeGreaterThanOrEqual(1);
  expect(values.at(-1)).toBe(3);
  expect([...values].sort()).toEqual(values);
  expect(new Set(values).size).toBe(values.length);
}
