// Preloaded by bunfig.toml: a generous default timeout for every test and hook (Bun 1.4.4 ignores [test] timeout in bunfig),
// and after the run, no server process a failed test left behind.
import { afterAll, setDefaultTimeout } from "bun:test";
import { killLeftovers } from "./proc.ts";

setDefaultTimeout(60_000);
afterAll(() => {
  killLeftovers();
});
