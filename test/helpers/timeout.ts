// Preloaded by bunfig.toml: a generous default timeout for every test and hook (Bun 1.4.4 ignores [test] timeout in bunfig).
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(60_000);
