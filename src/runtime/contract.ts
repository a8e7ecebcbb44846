/** @module The build ↔ runtime contract: the one process-wide record a build, a CLI and the executable or script they run share, and the brands that mark mcpbin's values. */

/**
 * What crosses from one side of mcpbin to the other inside one process, where no import can carry it:
 * the build's check run (src/build/check-run.ts) and `mcpbin list`/`call`/`dev` run an author's script
 * that may import another copy of mcpbin (a linked or nested package), and the generated entry of an
 * executable (src/build/precompute.ts) runs before the author's modules are evaluated. Every field is
 * optional: a script run by plain `bun` finds the record empty and behaves as documented.
 */
export interface BuildContract {
  /**
   * Recorded conversions, key → JSON text of a tool's JSON Schema (src/tools/recorded.ts); during the
   * check run also `file\u0000…` keys → absolute path of a file a resource declares (src/content/files.ts).
   * Installed by the check run (empty, to record into) and by the generated entry of an executable (to replay).
   */
  schemas?: Map<string, unknown>;
  /** True while the check run records `tool()`'s conversions into {@link schemas} (off with `MCPBIN_PRECOMPUTE_SCHEMAS=0`). */
  recordSchemas?: boolean;
  /** Set by the check run: warnings about advertised JSON Schemas (src/tools/json-schema.ts) go here, for `mcpbin build` to print. */
  schemaWarnings?: string[];
  /** The files embedded in an executable: `<uri>\u0000<path as written>` → embedded path (src/content/files.ts). */
  files?: Map<string, string>;
  /** True while the check run records the files resources declare (then {@link files} is not read). */
  recordFiles?: boolean;
  /** The app views bundled at build time: app URI → HTML document (src/apps/html.ts). */
  views?: Map<string, string>;
  /** Set by serve() (src/serve/run-server.ts): the guarded entry (src/cli/build.ts) says so when a script ends without it. */
  served?: boolean;
  /**
   * When a function: serve(options) hands its options to it and returns what it returns instead of
   * serving (src/runtime/collector.ts; installed by src/loader/script.ts for `mcpbin list`/`call`/`dev`
   * and the build's check). Typed loosely here so this module imports nothing; the collector casts.
   */
  collect?: (options: object) => void | Promise<void>;
  /**
   * Validators of raw JSON Schemas compiled by Ajv at build time (src/build/validators.ts): key (the schema's
   * JSON text, src/tools/validate.ts `validatorKey`) → validate function. Installed by the generated entry of an
   * executable; with it, a raw-schema tool validates without loading Ajv.
   */
  validators?: Map<string, PrecompiledValidator>;
  /** The stdout guard, once installed (src/runtime/stdout-guard.ts): two copies of mcpbin install it once. */
  stdoutGuard?: StdoutGuard;
}

/** A validate function Ajv generated (standalone code): true when valid, else false with `errors` set. */
export type PrecompiledValidator = ((data: unknown) => boolean) & { errors?: readonly object[] | null };

/** How the stdout guard was installed (src/runtime/stdout-guard.ts). */
export interface StdoutGuard {
  /** The descriptor protocol lines go to. */
  readonly fd: number;
  /** "fd": fd 1 now points at stderr, so every write to fd 1 (console.*, process.stdout, Bun.write, native code, child processes that inherit it) lands on stderr. "patch": only the JS entry points are redirected. */
  readonly mode: "fd" | "patch";
}

/** The global key of the {@link BuildContract} record (a registry symbol: every copy of mcpbin sees the same one). */
export const CONTRACT_KEY = Symbol.for("mcpbin.contract");

/**
 * The process's {@link BuildContract} record, created empty on first use. The generated entries import
 * this module by absolute path (src/build/precompute.ts, src/cli/build.ts) and fill or read it.
 * @returns the one record (mutable).
 */
export function contract(): BuildContract {
  const g = globalThis as { [CONTRACT_KEY]?: BuildContract };
  return (g[CONTRACT_KEY] ??= {});
}

// Brands: registry symbols set on mcpbin's own values, so a value made by one copy of mcpbin is recognised
// by another (a tool module bundled with its own copy, served by the CLI's). Not slots on globalThis.

/** Marks a tool made by `tool()` (src/tools/define.ts). */
export const TOOL_BRAND = Symbol.for("mcpbin.tool");
/** Marks a content block made by the constructors of src/shared/content-blocks.ts. */
export const CONTENT_BLOCK_BRAND = Symbol.for("mcpbin.contentBlock");
/** Marks a result made by `toolResult()` (src/shared/result.ts). */
export const TOOL_RESULT_BRAND = Symbol.for("mcpbin.toolResult");
/** Marks a resource made by `resource()` (src/content/resource.ts). */
export const RESOURCE_BRAND = Symbol.for("mcpbin.resource");
/** Marks a resource template made by `resourceTemplate()` (src/content/resource.ts). */
export const RESOURCE_TEMPLATE_BRAND = Symbol.for("mcpbin.resourceTemplate");
/** Marks a prompt made by `prompt()` (src/content/prompt.ts). */
export const PROMPT_BRAND = Symbol.for("mcpbin.prompt");
/** Where a tool's isError result from a thrown value keeps that value (src/tools/mask-errors.ts, `maskErrors`). */
export const THROWN_KEY = Symbol.for("mcpbin.thrown");

/** Not ours: the global slot of @opentelemetry/api 1.x, read to see whether a tracer provider is registered (src/telemetry/start.ts). */
export const OTEL_API_KEY = Symbol.for("opentelemetry.js.api.1");
