/** @module ping (legacy era, also before initialize): an empty result (MCP basic/utilities/ping; not part of 2026-07-28). */
import type { MethodSpec } from "../method.ts";

const EMPTY = Object.freeze({});

/** The `ping` entry. */
export const ping: MethodSpec<unknown, Record<string, never>> = {
  name: "ping",
  eras: ["legacy"],
  beforeInitialize: true,
  handle: () => EMPTY,
};
