/** @module mcpbin build: compiles an entry into one executable with release settings (the compiler's configuration, the profile-guided second pass, the check run). */
import { basename, dirname, join, resolve } from "node:path";
import { existsSync, lstatSync, readdirSync, renameSync, rmSync } from "node:fs";
import { CliError } from "./errors.ts";
import { outfileDir } from "./outfile-dir.ts";
import { inspectScript, precomputedEntry, recordBuildData, type Inspection } from "../build/precompute.ts";
import { mainModulePlugin } from "../loader/main-module.ts";
import { removeTempDir, tempDir } from "../build/temp-dirs.ts";
import { recordBytecodeOrder } from "./bytecode-order.ts";
import { guardedEntry } from "./guarded-entry.ts";
import { leaveOutScanYaml } from "./leave-out.ts";

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
    plugins: [leaveOutScanYaml, ...(main ? [mainModulePlugin(main)] : [])],
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
  outfileDir(outfile);
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
