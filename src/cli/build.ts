/** @module mcpbin build: compiles an entry into one executable with release settings, and prints client configuration. */
import { basename, dirname, join, resolve } from "node:path";
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { CliError } from "./errors.ts";
import { displayPath } from "../config/load.ts";
import {
  inspectScript,
  precomputedEntry,
  recordBuildData,
  type Inspection,
  type ServedHttp,
} from "../build/precompute.ts";
import { mainModulePlugin } from "../loader/main-module.ts";
import { META } from "../protocol/meta.ts";
import { MODERN_VERSION } from "../protocol/versions.ts";
import { removeTempDir, tempDir, trackChild } from "../build/temp-dirs.ts";

/** Options of one compile. */
export interface BuildOptions {
  /** The TypeScript entry (a script ending with `serve()`, or a generated config entry). */
  readonly entry: string;
  /** Where the executable goes; default `dist/<entry name>` beside the working directory. */
  readonly outfile?: string;
  /** A Bun compile target such as `bun-linux-arm64`; default the host. */
  readonly target?: string;
  /** Bytecode cache (faster cold start); default true where the target supports it. */
  readonly bytecode?: boolean;
  /** What messages call the entry (a generated entry is named after its config); default the entry path. */
  readonly label?: string;
  /**
   * Install mcpbin's stdout guard before the entry runs; default true. False for an entry that is not
   * an mcpbin server (it never calls `serve()`) and writes its own stdout.
   */
  readonly stdoutGuard?: boolean;
  /**
   * Run the executable with Bun's `--smol` (a smaller heap, collected more often); default true. A
   * tool server spends its life mostly idle beside several others a client launches, so memory
   * counts more than the last percent of throughput (docs/benchmarks.md measures both).
   */
  readonly smol?: boolean;
  /** A `--bytecode-order` profile (see {@link recordBytecodeOrder}); `compile` records one itself for a host build. */
  readonly bytecodeOrder?: string;
  /** Record a profile and compile again with it, for a host build without `bytecodeOrder`; default true. */
  readonly profile?: boolean;
  /**
   * The JSON Schemas recorded by the check run ({@link checkScript}) to embed; when not given, `compile`
   * runs the check itself and embeds what it recorded (best effort: nothing when the run fails).
   */
  readonly schemas?: Readonly<Record<string, string>>;
  /** The bundled views of the server's apps (URI → HTML) to embed; recorded with `schemas` when not given. */
  readonly views?: Readonly<Record<string, string>>;
  /** Raw JSON Schema validators compiled at build time (key → Ajv standalone module, src/build/validators.ts); recorded with `schemas` when not given. */
  readonly validators?: Readonly<Record<string, string>>;
}

/**
 * The `Bun.build` configuration of a release compile (exported for tests): minified, split into chunks,
 * ESM bytecode, no autoload from the run-time working directory, NODE_ENV production; `main` is loaded
 * with its `import.meta.main` true (src/loader/main-module.ts).
 * @param o - the compile's options; `entry` is the file handed to the compiler.
 * @param outfile - the executable's path.
 * @param main - the author's script, when it is not `o.entry` itself (a generated entry imports it).
 */
export function compileConfig(
  o: BuildOptions,
  outfile: string,
  main?: string,
): Bun.BuildConfig & { compile: Bun.CompileBuildOptions } {
  const bytecode = o.bytecode !== false;
  return {
    entrypoints: [o.entry],
    compile: {
      outfile,
      ...(o.target ? { target: o.target as Bun.Build.CompileTarget } : {}),
      ...(o.smol !== false ? { execArgv: ["--smol"] } : {}),
      ...(bytecode && o.bytecodeOrder !== undefined ? { bytecodeOrder: o.bytecodeOrder } : {}),
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
    },
    minify: true,
    // Source maps embedded in the executable: a stack trace names the author's files and lines, not /$bunfs/root/chunk-….js.
    sourcemap: "linked",
    // Code that runs only on request (Streamable HTTP, the OpenTelemetry SDK, Ajv) is loaded with
    // `import()`: split into chunks, it stays out of the bytecode every start loads (docs/benchmarks.md).
    splitting: true,
    format: "esm",
    bytecode,
    define: { "process.env.NODE_ENV": '"production"' },
    plugins: main ? [mainModulePlugin(main)] : [],
    throw: false,
  };
}

/**
 * Compiles the entry with Bun's compiler (`bun build --compile`): minified, ESM bytecode, no autoload
 * of `.env`/`bunfig.toml`/`tsconfig.json`/`package.json` from the run-time working directory, NODE_ENV production.
 * @returns the absolute path of the executable.
 * @throws CliError when the entry is missing or the compiler fails (its output is passed through to stderr).
 */
export async function compile(o: BuildOptions): Promise<string> {
  const entry = resolve(o.entry);
  if (!existsSync(entry)) throw new CliError(`entry not found: ${o.entry}`);
  const name = basename(entry).replace(/\.(m?[jt]s|tsx?)$/, "");
  let outfile = resolve(
    o.outfile ?? `dist/${name === "mcpbin.config" || name === ".mcpbin-entry" ? basename(dirname(entry)) : name}`,
  );
  if (o.target?.includes("windows") && !outfile.endsWith(".exe")) outfile += ".exe";
  // The compiler replaces its output: never let it replace a device, directory or link (e.g. /dev/null).
  if (existsSync(outfile) && !lstatSync(outfile).isFile()) {
    throw new CliError(`--outfile ${outfile} exists and is not a regular file; choose a file path`);
  }
  mkdirSync(dirname(outfile), { recursive: true });
  const before = new Set(readdirSync(dirname(outfile)));
  const raw = o.stdoutGuard === false;
  const recorded = o.schemas === undefined && !raw ? await recordBuildData(entry, bunExecutable()) : {};
  const schemas = o.schemas ?? recorded.schemas;
  const views = o.views ?? recorded.views;
  const validators = o.validators ?? (recorded as { validators?: Readonly<Record<string, string>> }).validators;
  const pre = schemas || views || validators ? precomputedEntry(entry, schemas ?? {}, views, validators) : undefined;
  // A raw entry (not an mcpbin server: the benchmark's baseline) is compiled as it is.
  const root = raw ? undefined : guardedEntry(pre?.entry ?? entry, { warnUnserved: true });
  const run = async (bytecode: boolean, bytecodeOrder = o.bytecodeOrder, out = outfile) => {
    try {
      const r = await Bun.build(
        compileConfig({ ...o, entry: root ?? entry, bytecode, bytecodeOrder }, out, raw ? undefined : entry),
      );
      return {
        code: r.success ? 0 : 1,
        text: r.logs
          .map((l) => String(l))
          .join("\n")
          .trim(),
      };
    } catch (e) {
      return { code: 1, text: String((e as Error)?.message ?? e) };
    }
  };
  let r = await run(o.bytecode !== false);
  if (r.code !== 0 && o.bytecode !== false) {
    // Some targets or modules cannot take a bytecode cache; fall back to plain JS.
    r = await run(false);
  } else if (
    r.code === 0 &&
    o.bytecode !== false &&
    o.bytecodeOrder === undefined &&
    o.profile !== false &&
    o.target === undefined &&
    !raw
  ) {
    // Profile-guided bytecode layout: the bytecode a session's start uses goes together at the front
    // of the executable, so a start touches fewer pages (docs/benchmarks.md). Best effort: without a
    // profile the first build stands.
    const order = await recordBytecodeOrder(outfile);
    if (order) {
      // Compiled again beside the first under the same file name (the name is part of the executable:
      // its module path), then moved over it; a failure leaves the first build.
      const stage = tempDir(".mcpbin-order-", dirname(outfile));
      try {
        const again = await run(true, order.file, join(stage, basename(outfile)));
        if (again.code === 0) renameSync(join(stage, basename(outfile)), outfile);
      } finally {
        removeTempDir(stage);
        order.cleanup();
      }
    }
  }
  if (root) removeTempDir(dirname(root));
  pre?.cleanup();
  // The compiler also writes the maps (the executable's, each chunk's) beside it; the executable carries its own copies.
  for (const f of readdirSync(dirname(outfile)))
    if (f.endsWith(".map") && !before.has(f)) rmSync(join(dirname(outfile), f), { force: true });
  if (r.code !== 0) {
    if (r.text) process.stderr.write(r.text + "\n");
    throw new CliError(`compiling ${o.label ?? o.entry}${o.target ? ` for ${o.target}` : ""} failed (Bun.build)`);
  }
  return outfile;
}

/** Longest the profiling session of {@link recordBytecodeOrder} may take, ms. */
const ORDER_TIMEOUT_MS = 10_000;

/**
 * Records which bytecode a start of the executable uses (`BUN_BYTECODE_ORDER_OUT`): runs it once, over stdio
 * whatever its options say (`MCPBIN_STDIO=1`), with a
 * session that runs no tool (initialize, tools/list, a call of an unknown tool, ping, and a 2026-07-28
 * server/discover), stdout and stderr discarded, stdin then closed.
 * @param executable - a host executable built with bytecode.
 * @returns the profile (the caller removes it with `cleanup`), or undefined when none was written.
 */
export async function recordBytecodeOrder(executable: string): Promise<{ file: string; cleanup(): void } | undefined> {
  const dir = tempDir("mcpbin-order-");
  const file = join(dir, "order.txt");
  const cleanup = () => removeTempDir(dir);
  const meta = { [META.protocolVersion]: MODERN_VERSION, [META.clientCapabilities]: {} };
  const session = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "mcpbin-build", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "\u0000", arguments: {} } },
    { jsonrpc: "2.0", id: 4, method: "ping" },
    { jsonrpc: "2.0", id: 5, method: "server/discover", params: { _meta: meta } },
  ];
  try {
    // The builder's tracing settings stay out of this run (it would export its spans).
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_")));
    // MCPBIN_STDIO=1 (like --stdio, but no argument a strict script would refuse): a server whose
    // options ask for HTTP must not open a port here.
    const p = Bun.spawn([executable], {
      stdin: "pipe",
      stdout: "ignore",
      stderr: "ignore",
      env: { ...env, MCPBIN_STDIO: "1", BUN_BYTECODE_ORDER_OUT: file },
    });
    trackChild(p);
    const timer = setTimeout(() => p.kill("SIGKILL"), ORDER_TIMEOUT_MS);
    p.stdin.write(session.map((m) => JSON.stringify(m) + "\n").join(""));
    await p.stdin.end();
    const code = await p.exited;
    clearTimeout(timer);
    if (code === 0 && existsSync(file) && statSync(file).size > 0) return { file, cleanup };
  } catch {
    // no profile: the caller keeps the unordered build
  }
  cleanup();
  return undefined;
}

/** How {@link guardedEntrySource} wraps an entry. */
export interface GuardedEntryOptions {
  /** Who speaks in the error line; default the executable's own file name at run time. */
  readonly name?: string;
  /** Import the stdout guard first; default true. */
  readonly stdoutGuard?: boolean;
  /**
   * When the process is about to end without `serve()` having been called (a later call, from an
   * unawaited main() or a timer, counts), say so on stderr and exit 1; default false.
   */
  readonly warnUnserved?: boolean;
  /**
   * Register the runtime plugin that makes the entry's `import.meta.main` true (src/loader/main-module.ts),
   * for an entry run from source (`mcpbin dev`); a compile gets the same from a build plugin. Default false.
   */
  readonly runAsMain?: boolean;
  /** What the unserved line calls the entry; default "the script" (a compiled executable embeds no build path). */
  readonly label?: string;
}

/**
 * The source of the entry actually compiled (or run by `mcpbin dev`): it imports the stdout guard
 * first, so the guard is in place before any author module is evaluated, then the author's entry with
 * `await import()` of a literal path (so the compiler embeds it) inside try/catch, so an error at
 * start-up (a duplicate tool, a bad option, a module that throws) prints one line
 * (src/runtime/startup.ts) and exits 1 instead of Bun's dump of the minified source and a stack.
 * @param entry - absolute path of the author's entry.
 * @param o - see {@link GuardedEntryOptions}.
 * @returns TypeScript source.
 */
export function guardedEntrySource(entry: string, o: GuardedEntryOptions = {}): string {
  const guard = resolve(import.meta.dir, "../runtime/stdout-guard-early.ts");
  const startup = resolve(import.meta.dir, "../runtime/startup.ts");
  const mainModule = resolve(import.meta.dir, "../loader/main-module.ts");
  const contractModule = resolve(import.meta.dir, "../runtime/contract.ts");
  const who =
    o.name === undefined ? `process.execPath.split(/[\\\\/]/).pop()!.replace(/\\.exe$/i, "")` : JSON.stringify(o.name);
  return [
    "// Generated by mcpbin; do not edit.",
    ...(o.stdoutGuard !== false ? [`import ${JSON.stringify(guard)};`] : []),
    `import { exitOnStartupError } from ${JSON.stringify(startup)};`,
    ...(o.warnUnserved ? [`import { contract } from ${JSON.stringify(contractModule)};`] : []),
    ...(o.runAsMain
      ? [`import { runAsMain } from ${JSON.stringify(mainModule)};`, `runAsMain(${JSON.stringify(entry)});`]
      : []),
    "try {",
    `  await import(${JSON.stringify(entry)});`,
    "} catch (e) {",
    `  exitOnStartupError(${who}, e);`,
    "}",
    ...(o.warnUnserved
      ? [
          // An executable that serves nothing must not look like one that served and ended well.
          `process.once("beforeExit", () => {`,
          `  if (contract().served) return;`,
          `  process.stderr.write(\`\${${who}}: ${escapeTemplate(o.label ?? "the script")} ended without calling serve(), so nothing was served\\n\`);`,
          `  process.exitCode = 1;`,
          "});",
        ]
      : []),
    "",
  ].join("\n");
}

function escapeTemplate(s: string): string {
  return s.replace(/[`$\\]/g, "\\$&");
}

/**
 * Writes {@link guardedEntrySource} into a fresh temporary directory.
 * @returns its path; the caller removes its directory.
 */
export function guardedEntry(entry: string, o: GuardedEntryOptions = {}): string {
  const dir = tempDir("mcpbin-build-");
  const file = join(dir, "main.ts");
  writeFileSync(file, guardedEntrySource(entry, o));
  return file;
}

/**
 * Checks a script before it is compiled, in one run of it in a child process (src/build/check-run.ts,
 * stdin closed, no arguments): collects the options it passes to `serve()` and builds the server's
 * Registry, so what the executable would refuse at every start (a duplicate tool, a bad option or tool
 * definition, a module that fails to load) fails the build; the same run records the JSON Schemas
 * `tool()` converts, for {@link compile} to embed.
 * @param entry - absolute path of the script.
 * @returns what the run found.
 * @throws CliError with the check's one-line message, also when the script never calls `serve()`
 *   while it loads (it is not an mcpbin server; with `if (import.meta.main)` around it, it does).
 */
export async function checkScript(entry: string): Promise<Inspection> {
  const r = await inspectScript(entry, bunExecutable());
  if ("notServer" in r) throw new CliError(r.notServer);
  return r;
}

/** The Bun executable running this CLI (the pinned devDependency when run through npx/bunx). */
export function bunExecutable(): string {
  return process.execPath;
}

/** What {@link clientConfig} adds to the plain stdio configuration. */
export interface ClientConfigExtras {
  /** Environment variables the server's code reads (src/cli/env-scan.ts): an `env` slot each, to fill in. */
  readonly env?: readonly string[];
  /** The HTTP endpoint the server is configured for: an HTTP configuration too, and `--stdio` for the stdio one. */
  readonly http?: ServedHttp;
}

/**
 * Ready-to-paste client configuration for an executable, for Claude Desktop, Claude Code, Cursor and VS
 * Code: stdio (with `--stdio` when the server is configured for HTTP, since it would serve HTTP
 * otherwise), an `env` slot for each variable the server reads, and for a server configured for HTTP
 * the `url` configuration of the clients that take one.
 * @param path - absolute path of the executable.
 * @param name - the name the server goes by in the client's configuration.
 * @param x - the environment variables and HTTP endpoint.
 * @returns lines of text, without a trailing newline.
 */
export function clientConfig(path: string, name: string, x: ClientConfigExtras = {}): string {
  const env = x.env ?? [];
  const args = x.http ? ["--stdio"] : [];
  const envSlot = env.length > 0 ? { env: Object.fromEntries(env.map((n) => [n, ""])) } : {};
  const key = JSON.stringify(name);
  const lines = [
    ...(env.length > 0
      ? [`The server reads ${env.join(", ")}: give each a value under "env" (or leave it out).`, ``]
      : []),
    `Claude Desktop (claude_desktop_config.json) and Cursor (~/.cursor/mcp.json or .cursor/mcp.json):`,
    `  { "mcpServers": { ${key}: ${JSON.stringify({ command: path, args, ...envSlot })} } }`,
    ``,
    `Claude Code:`,
    `  claude mcp add ${shellQuote(name)}${env.map((n) => ` -e ${n}=VALUE`).join("")} -- ${[path, ...args].map(shellQuote).join(" ")}`,
    ``,
    `VS Code (.vscode/mcp.json):`,
    `  { "servers": { ${key}: ${JSON.stringify({ type: "stdio", command: path, args, ...envSlot })} } }`,
  ];
  const h = x.http;
  if (h) {
    const host = h.host === "0.0.0.0" || h.host === "::" ? "127.0.0.1" : h.host.includes(":") ? `[${h.host}]` : h.host;
    const port = h.port === undefined || h.port === 0 ? "PORT" : String(h.port);
    const url = `http://${host}:${port}${h.path}`;
    const headers = h.token ? { headers: { Authorization: "Bearer TOKEN" } } : {};
    const start =
      h.port === undefined
        ? `${shellQuote(path)} --http PORT`
        : h.port === 0
          ? `${shellQuote(path)} (it prints its PORT on stderr)`
          : shellQuote(path);
    lines.push(
      ``,
      `Over HTTP: start ${start}, then`,
      `  Cursor: { "mcpServers": { ${key}: ${JSON.stringify({ url, ...headers })} } }`,
      `  Claude Code: claude mcp add --transport http ${shellQuote(name)} ${url}${h.token ? ` --header "Authorization: Bearer TOKEN"` : ""}`,
      `  VS Code: { "servers": { ${key}: ${JSON.stringify({ type: "http", url, ...headers })} } }`,
    );
  }
  return lines.join("\n");
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
