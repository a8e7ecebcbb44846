/** @module mcpbin openapi: an OpenAPI document as one executable (a generated entry embedding the loaded document), and --check's report. */
import "../serve/capabilities.ts";
import { writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { CliError } from "./errors.ts";
import { compile } from "./build.ts";
import { conventionalEnv, schemesOf } from "../openapi/auth.ts";
import { loadDocument, OpenApiError, type OpenApiDocument } from "../openapi/document.ts";
import { operationsOf } from "../openapi/operations.ts";
import { toolsOfDocument, type OpenApiToolsOptions } from "../openapi/tools.ts";
import { FEATURES, NEWEST_LEGACY_VERSION } from "../protocol/versions.ts";
import { Registry } from "../server/registry.ts";
import { toolsListJson } from "../tools/list-json.ts";
import { removeTempDir, tempDir } from "../build/temp-dirs.ts";

/** Above this many tools `--check` warns (the cap of Copilot and OpenAI; Cursor's is 40). */
export const TOOL_WARN = 128;
/** Above this many bytes of tools/list `--check` warns. */
export const BYTES_WARN = 100 * 1024;

/** The options `mcpbin openapi` bakes into an executable (JSON-serializable: no fetch function). */
export type OpenApiCliOptions = Omit<OpenApiToolsOptions, "fetch" | "auth">;

/** What `--check` measured. */
export interface OpenApiCheck {
  readonly title: string;
  readonly tools: number;
  /** Bytes of the tools/list result (2025-11-25). */
  readonly bytes: number;
  /** bytes / 4, a rough token count. */
  readonly tokens: number;
  readonly names: readonly string[];
  readonly warnings: readonly string[];
  /** The environment variables its security schemes' credentials are read from (the client configuration's `env` slots). */
  readonly env: readonly string[];
  /** The report as printed. */
  readonly text: string;
}

function titleOf(doc: OpenApiDocument): string {
  const t = (doc.info as { title?: unknown } | undefined)?.title;
  return typeof t === "string" && t.trim() ? t.trim() : "API";
}

function versionOf(doc: OpenApiDocument): string {
  const v = (doc.info as { version?: unknown } | undefined)?.version;
  return typeof v === "string" && v.trim() ? v.trim() : "0.0.0";
}

/** `Swagger Petstore - OpenAPI 3.0` → `swagger-petstore-openapi-3-0`. */
export function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "api"
  );
}

async function load(source: string, o: OpenApiCliOptions): Promise<OpenApiDocument> {
  try {
    return (await loadDocument(source, o)).document;
  } catch (e) {
    if (e instanceof OpenApiError) throw new CliError(`openapi: ${e.message}`);
    throw e;
  }
}

/**
 * `mcpbin openapi <doc> --check`: the tool count, tools/list bytes and estimated tokens, every name
 * with its operation, the environment variables each security scheme reads, and warnings above
 * {@link TOOL_WARN} tools or {@link BYTES_WARN} bytes.
 * @throws CliError when the document cannot be used.
 */
export async function checkOpenApi(source: string, o: OpenApiCliOptions): Promise<OpenApiCheck> {
  return checkDocument(await load(source, o), source, o);
}

/** {@link checkOpenApi} of a loaded document. */
export function checkDocument(doc: OpenApiDocument, source: string, o: OpenApiCliOptions): OpenApiCheck {
  const warnings: string[] = [];
  let opts: OpenApiToolsOptions = { ...o, auth: "convention" };
  let tools;
  try {
    tools = toolsOfDocument(doc, resolve(source), opts);
  } catch (e) {
    if (!(e instanceof OpenApiError && /is relative: pass baseUrl/.test(e.message)))
      throw new CliError(`openapi: ${(e as Error).message}`);
    warnings.push(`${e.message.replace("pass baseUrl", "pass --base-url")}`);
    opts = { ...opts, baseUrl: "http://base-url.invalid" };
    tools = toolsOfDocument(doc, resolve(source), opts);
  }
  const registry = new Registry({ name: "check", version: "0", tools });
  const bytes = Buffer.byteLength(toolsListJson(registry, FEATURES.get(NEWEST_LEGACY_VERSION)!));
  const tokens = Math.round(bytes / 4);
  if (tools.length > TOOL_WARN)
    warnings.push(
      `${tools.length} tools is over ${TOOL_WARN}, the cap of several clients (Copilot, OpenAI; Cursor takes 40): select with --include/--exclude/--methods/--read-only, or use --mode dynamic`,
    );
  if (bytes > BYTES_WARN)
    warnings.push(
      `tools/list is ${bytes} bytes (~${tokens} tokens), over ${BYTES_WARN / 1024} KB of every conversation's context: curate the operations or use --mode dynamic`,
    );
  const lines = [
    `${titleOf(doc)} ${versionOf(doc)}: ${tools.length} tool${tools.length === 1 ? "" : "s"} (mode ${o.mode ?? "tools"}), tools/list ${bytes} bytes, ~${tokens} tokens`,
  ];
  lines.push("", "tools:");
  const ops = operationsOf(doc, o);
  if (o.mode === "dynamic")
    lines.push(...tools.map((t) => `  ${t.name}`), "", `operations behind them (${ops.length}):`);
  lines.push(...operationLines(ops));
  const schemes = schemesOf(doc, "convention");
  const env = [...new Set([...schemes.values()].flatMap((s) => conventionalEnv(s.name, s.kind)))];
  if (schemes.size > 0) {
    lines.push("", "credentials, read from the environment at each call:");
    for (const s of schemes.values()) {
      const what =
        s.kind === "apiKey" ? `apiKey in ${s.in} ${s.param}` : s.kind === "basic" ? "HTTP basic" : "bearer token";
      lines.push(`  ${s.name} (${what}): ${conventionalEnv(s.name, s.kind).join(", ")}`);
    }
  }
  if (warnings.length > 0) lines.push("", ...warnings.map((w) => `warning: ${w}`));
  return {
    title: titleOf(doc),
    tools: tools.length,
    bytes,
    tokens,
    names: tools.map((t) => t.name),
    warnings,
    env,
    text: lines.join("\n") + "\n",
  };
}

/**
 * One line per operation in three columns: the name padded to the longest, the method right-aligned
 * (so every path starts in the same column), the path.
 */
function operationLines(
  ops: readonly { readonly name: string; readonly method: string; readonly path: string }[],
): string[] {
  const nameWidth = Math.max(0, ...ops.map((op) => op.name.length));
  const methodWidth = Math.max(0, ...ops.map((op) => op.method.length));
  return ops.map((op) => `  ${op.name.padEnd(nameWidth)}  ${op.method.padStart(methodWidth)} ${op.path}`);
}

/**
 * The source of the entry an openapi build compiles: it imports the loaded document from `documentFile`
 * (JSON, embedded by the compiler, so the executable reads no file at run time) and serves its tools.
 * `MCPBIN_BASE_URL` in the executable's environment overrides the base URL baked in.
 */
export function openapiEntrySource(
  documentFile: string,
  name: string,
  version: string,
  o: OpenApiCliOptions,
  origin: string,
): string {
  const tools = resolve(import.meta.dir, "../openapi/tools.ts");
  const serve = resolve(import.meta.dir, "../serve/serve.ts");
  return [
    "// Generated by mcpbin openapi; do not edit.",
    `import document from ${JSON.stringify(documentFile)} with { type: "json" };`,
    `import { toolsOfDocument } from ${JSON.stringify(tools)};`,
    `import { serve } from ${JSON.stringify(serve)};`,
    `const options = ${JSON.stringify(o)};`,
    `const baseUrl = process.env.MCPBIN_BASE_URL || options.baseUrl;`,
    `const tools = toolsOfDocument(document, ${JSON.stringify(origin)}, { ...options, ...(baseUrl ? { baseUrl } : {}), auth: "convention" });`,
    `await serve({ name: ${JSON.stringify(name)}, version: ${JSON.stringify(version)}, tools });`,
    "",
  ].join("\n");
}

/**
 * `mcpbin openapi <doc> --outfile PATH`: loads and checks the document here (parse, validation, upgrade
 * to 3.1, the tools made once so a bad name or base URL fails the build), writes a generated entry that
 * embeds it, and compiles that with {@link compile}.
 * @returns the executable's path, the server name and the check.
 * @throws CliError when the document cannot be used or the compile fails.
 */
export async function buildOpenApi(
  source: string,
  o: OpenApiCliOptions & { outfile?: string; target?: string; name?: string; smol?: boolean },
): Promise<{ path: string; name: string; check: OpenApiCheck }> {
  const { outfile, target, name: given, smol, ...opts } = o;
  const doc = await load(source, opts);
  // The tools are made once here, so a bad name or option fails the build, not every start.
  if (opts.baseUrl === undefined) {
    try {
      toolsOfDocument(doc, resolve(source), { ...opts, auth: "convention" });
    } catch (e) {
      throw new CliError(`openapi: ${(e as Error).message.replace("pass baseUrl", "pass --base-url")}`);
    }
  }
  const check = checkDocument(doc, source, opts);
  const name = given ?? (outfile ? basename(outfile).replace(/\.exe$/, "") : slug(titleOf(doc)));
  const dir = tempDir("mcpbin-openapi-");
  try {
    const docFile = join(dir, "document.json");
    writeFileSync(docFile, JSON.stringify(doc));
    const entry = join(dir, ".mcpbin-entry.ts");
    writeFileSync(
      entry,
      openapiEntrySource(docFile, name, versionOf(doc), opts, /^https?:/i.test(source) ? source : resolve(source)),
    );
    const path = await compile({ entry, outfile: outfile ?? `dist/${name}`, target, smol, label: source });
    return { path, name, check };
  } finally {
    removeTempDir(dir);
  }
}
