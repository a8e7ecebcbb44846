/** @module Installs the stdout guard as the first thing a compiled executable does, before any author module runs. */
import { guardStdout } from "./stdout-guard.ts";

// Imported first by the entry `mcpbin build` compiles, so even top-level output of the author's
// modules (a banner, a library's log line at import) lands on stderr, not among protocol lines.
guardStdout();
