/** @module The mcpbin command line: build, dev, list, call, init, release, --help, --version. */
import "../serve/capabilities.ts";
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { basename, dirname, resolve } from "node:path";
import { existsSync, rmSync, statSync } from "node:fs";
import { displayPath } from "../config/load.ts";
import { CliError } from "./errors.ts";
import { BuildError } from "../build/errors.ts";
import { checkScript, clientConfig, compile, guardedEntry } from "./build.ts";
import { buildProject, relativeCommands } from "./project-build.ts";
import { loadSource, pickSource, type Source } from "./source.ts";
import { bundle } from "./bundle.ts";
import { devWatch } from "./watch.ts";
import { isSensitive, scanEnv } from "./env-scan.ts";
import { upstreamVars } from "../client/servers-file.ts";
import { servedHttp, type ServedHttp } from "../build/precompute.ts";
import { keepTempDir } from "../build/temp-dirs.ts";
import { install, INSTALL_CLIENTS, parseEnvFlags, type InstallClient } from "./install.ts";
import { renderList } from "./list.ts";
import { callTool, parseCallArguments, renderResult } from "./call.ts";
import { enableTasks } from "../tasks/register.ts";
import { parsePairs, renderContents, renderMessages, requestOnce } from "./read-prompt.ts";
import { initProject } from "./init.ts";
import { release, RELEASE_PLATFORMS } from "./release.ts";
import { buildOpenApi, checkOpenApi, type OpenApiCliOptions } from "./openapi.ts";
import { proxy } from "./proxy.ts";
import { Registry } from "../server/registry.ts";
import { loadProject } from "../loader/project.ts";
import { serve } from "../serve/serve.ts";
import { asIfAlone } from "../loader/script.ts";
import { guardStdout } from "../runtime/stdout-guard.ts";
import pkg from "../../package.json" with { type: "json" };

const HELP = `mcpbin ${pkg.version}: TypeScript MCP tools, served by one executable

Usage:
  mcpbin build [entry.ts | --config FILE] [--outfile PATH] [--target TARGET] [--no-smol]
                 compile a server script, or a project (default ./mcpbin.config.ts),
                 into one executable and print client configuration for it; it runs
                 with Bun's --smol (less memory) unless --no-smol (faster start for a
                 server that builds hundreds of schemas at start)
  mcpbin dev [entry.ts | --config FILE] [--http [host:]port] [--watch]
                 serve a script or a project from source over stdio (or HTTP); --watch
                 reloads its tools when a file changes, the client stays connected
  mcpbin list [entry.ts | --config FILE] [--json]
                 the tools: name, title, parameters, required parameters, source;
                 then the resources, resource templates and prompts
  mcpbin read <uri> [entry.ts | --config FILE] [--json]
                 read one resource in-process and print its contents
  mcpbin prompt <name> [key=value]... [entry.ts | --config FILE] [--json]
                 get one prompt's messages in-process
  mcpbin call <tool> ['<json arguments>'] [entry.ts | --config FILE] [--json] [--task]
                 run one tool in-process and print what a client would see
                 (--json: the tools/call result as sent; exit 1 on an isError result;
                 --task: run it as a task, its status and progress on stderr until the result)
  mcpbin init [dir] [--mcpbin SPEC]
                 scaffold a project: config, tools/, a test, package.json, README;
                 SPEC is its mcpbin dependency (default: a file: link to this clone, or,
                 installed, the tarball/folder/git spec it was installed from, else ^${pkg.version})
  mcpbin release [entry.ts | --config FILE] [--targets LIST] [--outdir DIR]
                 one archive per platform plus SHA256SUMS in DIR (default dist/release);
                 LIST is comma-separated from ${RELEASE_PLATFORMS.slice(0, 3).join(", ")},
                 ${RELEASE_PLATFORMS.slice(3).join(", ")} (default all)
  mcpbin preview [entry.ts | --config FILE] [--port N]
                 a local MCP Apps host on http://127.0.0.1:N (default any free port):
                 each app's view in a sandboxed iframe, its tools callable from the page
  mcpbin openapi <doc> [--base-url URL] [--outfile PATH | --check] [--mode tools|dynamic]
                 [--include P]... [--exclude P]... [--methods LIST] [--read-only]
                 [--header 'Name: value']... [--output-schemas] [--name NAME] [--target TARGET]
                 [--allow-network [--allow-host HOST]...]
                 an OpenAPI 3.0/3.1 document (JSON or YAML) as one executable, a tool per
                 operation (or three in dynamic mode); --check prints the tool count, bytes,
                 estimated tokens, names, credential variables and warnings instead.
                 P: an operationId/name glob, tag:NAME or path:GLOB
  mcpbin install <client> [executable | entry.ts | --config FILE] [--name NAME]
                 [--env KEY=VALUE]... [--arg ARG]... [--scope user|project] [--dry-run]
                 write the server into the client's own MCP configuration (a backup
                 beside it as <file>.bak; a second run adds no duplicate); client is
                 claude-desktop, claude-code, cursor or vscode; a source is built first
  mcpbin bundle [entry.ts | --config FILE] [--outfile FILE.mcpb] [--targets LIST]
                 [--author NAME] [--description TEXT]
                 an MCP Bundle (.mcpb) for one-click install in desktop clients: the
                 executable per platform (as release builds them) and a manifest whose
                 user_config offers the environment variables the server's code reads
  mcpbin proxy --servers FILE [--naming STRATEGY] [--http [host:]port] [--check]
                 one server fronting every entry of an mcpServers (Claude Desktop, Cursor)
                 or servers (VS Code) file; STRATEGY is on-collision (default: colliding
                 names become <server>__<tool>), prefix (all of them) or none; --check
                 prints per upstream its tools, bytes, tokens and name problems
  mcpbin proxy --url URL [--header "Name: value"]... [--name NAME]
                 a remote Streamable HTTP server served here over stdio (or --http)
  mcpbin --help    this text
  mcpbin --version the version

Without an entry or --config, commands use ./mcpbin.config.ts. A positional file named
mcpbin.config.* is a config; any other is a script that ends with serve().
TARGET is a Bun compile target such as bun-linux-arm64, bun-darwin-arm64, bun-windows-x64.

Examples:
  mcpbin init my-server && cd my-server && npm install && npm test
  mcpbin build --config mcpbin.config.ts --outfile dist/my-server
  mcpbin call add_numbers '{"x": 2, "y": 3}'
  claude mcp add my-server -- "$PWD/dist/my-server"
`;

/**
 * Runs the CLI.
 * @param argv - arguments after the executable and script.
 * @returns the exit code; errors are one line on stderr.
 */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (e) {
    if (e instanceof CliError || e instanceof BuildError) {
      process.stderr.write(`mcpbin: ${e.message}\n`);
      return e.exitCode;
    }
    const msg = e instanceof Error ? e.message : String(e);
    process.stderr.write(`mcpbin: ${msg.split("\n")[0]}\n`);
    return 1;
  }
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  running = command;
  const own = rest.indexOf("--");
  const flags = own === -1 ? rest : rest.slice(0, own);
  if (flags.includes("--help") || flags.includes("-h")) {
    const help = commandHelp(command);
    if (help === undefined) throw new CliError(`unknown command "${command}"; see mcpbin --help`, 2);
    process.stdout.write(help);
    return 0;
  }
  if (command === "build") return build(rest);
  if (command === "dev") return dev(rest);
  if (command === "list") return list(rest);
  if (command === "call") return call(rest);
  if (command === "read") return readCommand(rest);
  if (command === "prompt") return promptCommand(rest);
  if (command === "init") return init(rest);
  if (command === "release") return releaseCommand(rest);
  if (command === "preview") return preview(rest);
  if (command === "openapi") return openapiCommand(rest);
  if (command === "install") return installCommand(rest);
  if (command === "bundle") return bundleCommand(rest);
  if (command === "proxy") return proxyCommand(rest);
  throw new CliError(`unknown command "${command}"; see mcpbin --help`, 2);
}

/** The command being run, for the messages of {@link parse}. */
let running = "";

function parse<O extends ParseArgsOptionsConfig>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new CliError(parseErrorLine(running, e as Error & { code?: string }, Object.keys(options)), 2);
  }
}

/**
 * One clear line for an error of node:util's parseArgs (whose messages explain its own syntax instead).
 * @param command - the command (`build`, …).
 * @param e - what parseArgs threw.
 * @param known - the command's option names.
 */
export function parseErrorLine(command: string, e: Error & { code?: string }, known: readonly string[]): string {
  const see = `see mcpbin ${command} --help`;
  const option = /'(-[^' ]+)/.exec(e.message)?.[1];
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option) {
    return `${command}: unknown option ${option} (${command} takes ${known.map((k) => `--${k}`).join(", ") || "no options"}); ${see}`;
  }
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option) {
    return /argument missing/.test(e.message) ? `${command}: ${option} needs a value (${option} VALUE); ${see}` : `${command}: ${option} takes no value; ${see}`;
  }
  return `${command}: ${e.message.split(". ")[0]}; ${see}`;
}

/** The usage of one command: its lines of the overview, and the notes that apply to every command. */
export function commandHelp(command: string): string | undefined {
  const lines = HELP.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`  mcpbin ${command} `) || l === `  mcpbin ${command}`);
  if (start === -1) return undefined;
  let end = start + 1;
  while (end < lines.length && lines[end]!.startsWith("    ") && !lines[end]!.startsWith("  mcpbin ")) end++;
  const notes = HELP.slice(HELP.indexOf("Without an entry or --config"), HELP.indexOf("\nExamples:"));
  return `Usage:\n${lines.slice(start, end).join("\n")}\n\n${notes}`;
}

/**
 * For `list` and `call`, which load the author's code in this process: moves fd 1 to stderr (the
 * stdout guard), so whatever that code prints cannot mix with the command's own output.
 * @returns a writer to the real stdout; resolves once the text is handed to the system.
 */
function ownStdout(): (text: string) => Promise<void> {
  const { fd } = guardStdout();
  return async (text) => {
    const sink = Bun.file(fd).writer();
    sink.write(text);
    await sink.flush();
    await sink.end();
  };
}

function extra(command: string, positionals: string[], max: number): void {
  if (positionals.length > max) throw new CliError(`${command}: unexpected argument "${positionals[max]}"; see mcpbin --help`, 2);
}

async function build(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { config: { type: "string" }, outfile: { type: "string" }, target: { type: "string" }, "no-smol": { type: "boolean" } });
  extra("build", positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], "build");
  const { path, name, env, http } = await buildSource(src, { outfile: values.outfile as string | undefined, target: values.target as string | undefined, smol: values["no-smol"] !== true });
  process.stdout.write(`${path}\n\n${clientConfig(path, name, { env, http })}\n`);
  return 0;
}

/**
 * Compiles a script or project like `mcpbin build` (progress on stderr): the executable's path, the server's
 * name, the environment variables its code reads and the HTTP endpoint it is configured for.
 */
async function buildSource(src: Source, o: { outfile?: string; target?: string; smol?: boolean }): Promise<{ path: string; name: string; serverName: string; env: string[]; http?: ServedHttp }> {
  const started = performance.now();
  let path: string;
  let name: string;
  let serverName: string;
  let env: string[];
  let http: ServedHttp | undefined;
  if (src.kind === "config") {
    const built = await buildProject(src.path, o);
    path = built.path;
    name = serverName = built.project.config.name;
    const upstreams = (built.project.options.upstreams ?? {}) as Readonly<Record<string, unknown>>;
    // The upstreams' `${VAR}`s are read at start from the executable's environment, which a client's
    // stdio launch keeps minimal: each needs its slot in the printed configuration too.
    env = [...new Set([...built.env.map((e) => e.name), ...upstreamVars(upstreams)])].sort();
    http = servedHttp(built.project.options.http);
    const left = built.project.modules.length - built.modules.length;
    const n = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;
    process.stderr.write(`mcpbin: ${n(built.project.options.tools.length, "tool")} from ${n(built.modules.length, "module")}${left ? ` (${left} without an active tool left out)` : ""}\n`);
  } else {
    const checked = await checkScript(src.path);
    // As for a config: a relative upstream command would be resolved from the client's working directory.
    relativeCommands(Object.fromEntries(Object.entries(checked.upstreamCommands ?? {}).map(([n, command]) => [n, { command }])), src.path, displayPath(src.path) || src.path);
    path = await compile({ entry: src.path, ...o, schemas: checked.schemas, views: checked.views, validators: checked.validators });
    name = basename(path).replace(/\.exe$/, "");
    serverName = checked.name;
    // As for a config: the `${VAR}`s of the script's own `serve({ upstreams })`, which the check run saw.
    env = [...new Set([...scanEnv(src.path).map((e) => e.name), ...(checked.upstreamEnv ?? [])])].sort();
    http = checked.http;
    process.stderr.write(`mcpbin: ${checked.tools} tool${checked.tools === 1 ? "" : "s"}\n`);
  }
  process.stderr.write(`mcpbin: built in ${Math.round(performance.now() - started)} ms\n`);
  return { path, name, serverName, env, ...(http ? { http } : {}) };
}

/** `mcpbin install <client> [executable | entry.ts | --config FILE]`: see src/cli/install.ts. */
async function installCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    config: { type: "string" },
    name: { type: "string" },
    env: { type: "string", multiple: true },
    arg: { type: "string", multiple: true },
    scope: { type: "string" },
    "dry-run": { type: "boolean" },
  });
  extra("install", positionals, 2);
  const client = positionals[0];
  if (!client || !(INSTALL_CLIENTS as readonly string[]).includes(client)) {
    throw new CliError(`install: ${client ? `unknown client "${client}"` : "which client?"}; expected one of ${INSTALL_CLIENTS.join(", ")}`, 2);
  }
  const scope = (values.scope ?? "user") as string;
  if (scope !== "user" && scope !== "project") throw new CliError(`install: --scope must be user or project; got "${scope}"`, 2);
  const target = positionals[1];
  let command: string;
  let name: string;
  const env = parseEnvFlags((values.env ?? []) as string[]);
  if (target !== undefined && values.config === undefined && isExecutable(target)) {
    command = resolve(target);
    name = basename(command).replace(/\.exe$/i, "");
  } else {
    const src = pickSource(values.config as string | undefined, target, "install");
    let reads: string[];
    ({ path: command, serverName: name, env: reads } = await buildSource(src, {}));
    await askForEnv(reads, env);
  }
  const dryRun = values["dry-run"] === true;
  const r = install({ client: client as InstallClient, name: (values.name as string | undefined) ?? name, command, args: (values.arg ?? []) as string[], env, scope }, dryRun);
  if (dryRun) {
    process.stdout.write(`${r.file} (${r.change === "unchanged" ? "already up to date" : r.change === "added" ? `would add "${r.name}"` : `would update "${r.name}"`}):\n${r.text}`);
    return 0;
  }
  const what = r.change === "unchanged" ? `"${r.name}" is already in ${r.file}; nothing written` : `${r.change} "${r.name}" in ${r.file}${r.backup ? ` (previous file: ${r.backup})` : ""}`;
  process.stderr.write(`mcpbin: ${what}\n`);
  process.stdout.write(`${r.file}\n`);
  return 0;
}

async function bundleCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { config: { type: "string" }, targets: { type: "string" }, outfile: { type: "string" }, author: { type: "string" }, description: { type: "string" } });
  extra("bundle", positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], "bundle");
  const targets = values.targets === undefined ? undefined : String(values.targets).split(",").map((s) => s.trim()).filter(Boolean);
  const r = await bundle(src, { targets, outfile: values.outfile as string | undefined, author: values.author as string | undefined, description: values.description as string | undefined });
  process.stdout.write(`${r.file}\n`);
  return 0;
}

/**
 * The environment variables the server reads (its code's and its upstreams' `${VAR}`s) that `--env` did not
 * set: asked for on a terminal (an empty answer leaves one out), else named on stderr.
 */
async function askForEnv(reads: readonly string[], env: Record<string, string>): Promise<void> {
  const missing = reads.filter((n) => !(n in env)).map((name) => ({ name, sensitive: isSensitive(name) }));
  if (missing.length === 0) return;
  if (!process.stdin.isTTY) {
    process.stderr.write(`mcpbin: install: the server reads ${missing.map((e) => e.name).join(", ")}; pass --env NAME=VALUE to set them\n`);
    return;
  }
  for (const e of missing) {
    const answer = prompt(`${e.name}${e.sensitive ? " (secret, stored in the client's config file)" : ""} [empty: leave unset]:`);
    if (answer) env[e.name] = answer;
  }
}

/** True for an existing file that is not a source file (an executable built by mcpbin). */
function isExecutable(path: string): boolean {
  if (/\.(m?[jt]s|tsx?|cjs|json)$/.test(path) || !existsSync(path)) return false;
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

async function proxyCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    servers: { type: "string" },
    url: { type: "string" },
    header: { type: "string", multiple: true },
    naming: { type: "string" },
    name: { type: "string" },
    check: { type: "boolean" },
    http: { type: "string" },
    stdio: { type: "boolean" },
  });
  extra("proxy", positionals, 0);
  // --http/--stdio stay in this process's arguments, where serve() reads them.
  return proxy(
    {
      servers: values.servers as string | undefined,
      url: values.url as string | undefined,
      headers: (values.header as string[] | undefined) ?? [],
      naming: values.naming as string | undefined,
      name: values.name as string | undefined,
      check: values.check === true,
    },
    pkg.version,
  );
}

async function dev(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { config: { type: "string" }, http: { type: "string" }, stdio: { type: "boolean" }, watch: { type: "boolean" } });
  extra("dev", positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], "dev");
  if (values.watch === true) {
    if (!existsSync(src.path)) throw new CliError(`dev: entry not found: ${displayPath(src.path) || src.path}`);
    await devWatch(src);
    return 0;
  }
  if (src.kind === "config") {
    // In this process: load from source (warnings on stderr), then serve until stdin closes
    // (serve() reads --http/--stdio from this process's arguments).
    const project = await loadProject(src.path);
    await serve(project.options);
    return 0;
  }
  // Both flags go through: the server decides (--stdio wins wherever it stands).
  const transport = [...(values.http !== undefined ? ["--http", values.http as string] : []), ...(values.stdio ? ["--stdio"] : [])];
  if (!existsSync(src.path)) throw new CliError(`dev: entry not found: ${displayPath(src.path) || src.path}`);
  // The script runs under the same generated entry a build compiles: stdout guard first, and an error
  // at start-up is one line (`mcpbin: <message>`) and exit 1, not Bun's source dump.
  const entry = guardedEntry(src.path, { name: "mcpbin", warnUnserved: true, runAsMain: true, label: displayPath(src.path) });
  keepTempDir(dirname(entry)); // this command forwards signals to the server and removes the entry once it exits
  try {
    const p = Bun.spawn([process.execPath, entry, ...transport], { stdin: "inherit", stdout: "inherit", stderr: "inherit" });
    const forward = (sig: NodeJS.Signals) => p.kill(sig);
    process.on("SIGTERM", forward);
    process.on("SIGINT", forward);
    return await p.exited;
  } finally {
    rmSync(dirname(entry), { recursive: true, force: true });
  }
}

async function list(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { config: { type: "string" }, json: { type: "boolean" } });
  extra("list", positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], "list");
  const out = ownStdout();
  const registry = new Registry(await loadSource(src));
  await out(renderList(registry, src, values.json === true));
  // Timers or handles a module left behind must not keep the command alive.
  setTimeout(() => process.exit(process.exitCode ?? 0), 100).unref();
  return 0;
}

async function call(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { config: { type: "string" }, json: { type: "boolean" }, task: { type: "boolean" } });
  extra("call", positionals, 3);
  let [name, json, entry] = positionals;
  // The JSON arguments are optional: `call <tool> server.ts` names the entry script, not the arguments.
  if (entry === undefined && json !== undefined && !json.trimStart().startsWith("{") && /\.(?:[cm]?[jt]sx?)$/.test(json)) [json, entry] = [undefined, json];
  if (!name) throw new CliError(`call needs a tool name: mcpbin call <tool> '<json arguments>'`, 2);
  const src = pickSource(values.config as string | undefined, entry, "call");
  const out = ownStdout();
  const options = await loadSource(src);
  const registry = new Registry(options);
  if (values.task === true) enableTasks(options);
  const outcome = await asIfAlone(src.path, () => callTool(registry, name, parseCallArguments(json), { task: values.task === true }));
  await out(values.json === true ? JSON.stringify(outcome.result, null, 2) + "\n" : renderResult(outcome.result));
  if (outcome.isError) process.stderr.write(`mcpbin: tool ${name} returned an error result (isError)\n`);
  // Timers or handles a tool or module left behind must not keep the command alive.
  setTimeout(() => process.exit(process.exitCode ?? 0), 100).unref();
  return outcome.isError ? 1 : 0;
}

async function readCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { config: { type: "string" }, json: { type: "boolean" } });
  extra("read", positionals, 2);
  const [uri, entry] = positionals;
  if (!uri) throw new CliError(`read needs a URI: mcpbin read <uri>`, 2);
  const src = pickSource(values.config as string | undefined, entry, "read");
  const out = ownStdout();
  const registry = new Registry(await loadSource(src));
  const result = await asIfAlone(src.path, () => requestOnce(registry, "read", "resources/read", { uri }));
  await out(values.json === true ? JSON.stringify(result, null, 2) + "\n" : renderContents(result));
  setTimeout(() => process.exit(process.exitCode ?? 0), 100).unref();
  return 0;
}

async function promptCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { config: { type: "string" }, json: { type: "boolean" } });
  const [name, ...rest] = positionals;
  if (!name) throw new CliError(`prompt needs a prompt name: mcpbin prompt <name> key=value…`, 2);
  // key=value pairs are arguments; one other positional is the entry.
  const others = rest.filter((a) => !a.includes("="));
  extra("prompt", [name, ...others], 2);
  const src = pickSource(values.config as string | undefined, others[0], "prompt");
  const out = ownStdout();
  const registry = new Registry(await loadSource(src));
  const result = await asIfAlone(src.path, () => requestOnce(registry, "prompt", "prompts/get", { name, arguments: parsePairs(rest.filter((a) => a.includes("="))) }));
  await out(values.json === true ? JSON.stringify(result, null, 2) + "\n" : renderMessages(result));
  setTimeout(() => process.exit(process.exitCode ?? 0), 100).unref();
  return 0;
}

async function init(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { mcpbin: { type: "string" } });
  extra("init", positionals, 1);
  const dir = resolve(positionals[0] ?? ".");
  const created = initProject(dir, values.mcpbin as string | undefined);
  process.stdout.write(`${created.summary}\n`);
  return 0;
}

async function preview(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { config: { type: "string" }, port: { type: "string" } });
  extra("preview", positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], "preview");
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`preview: --port must be a TCP port from 0 to 65535; got ${JSON.stringify(values.port)}`, 2);
  const { startPreview } = await import("../preview/host.ts");
  const p = await startPreview({ source: src, port });
  process.stdout.write(`${p.url}\n`);
  process.stderr.write(`mcpbin: previewing ${displayPath(src.path) || src.path} at ${p.url} (Ctrl-C stops)\n`);
  await new Promise<void>((done) => {
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await p.stop();
  return 0;
}

async function releaseCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { config: { type: "string" }, targets: { type: "string" }, outdir: { type: "string" } });
  extra("release", positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], "release");
  const targets = values.targets === undefined ? undefined : String(values.targets).split(",").map((s) => s.trim()).filter(Boolean);
  const r = await release(src, { targets, outdir: values.outdir as string | undefined });
  process.stdout.write(r.archives.map((a) => `${a}\n`).join("") + `${r.sums}\n`);
  return 0;
}

async function openapiCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    "base-url": { type: "string" },
    outfile: { type: "string" },
    check: { type: "boolean" },
    mode: { type: "string" },
    include: { type: "string", multiple: true },
    exclude: { type: "string", multiple: true },
    methods: { type: "string" },
    "read-only": { type: "boolean" },
    header: { type: "string", multiple: true },
    "output-schemas": { type: "boolean" },
    name: { type: "string" },
    target: { type: "string" },
    "allow-network": { type: "boolean" },
    "allow-host": { type: "string", multiple: true },
    "no-smol": { type: "boolean" },
  });
  extra("openapi", positionals, 1);
  const doc = positionals[0];
  if (!doc) throw new CliError(`openapi needs a document: mcpbin openapi ./openapi.yaml --base-url https://api.example.com --outfile dist/api`, 2);
  const mode = values.mode as string | undefined;
  if (mode !== undefined && mode !== "tools" && mode !== "dynamic") throw new CliError(`openapi: --mode is tools or dynamic, not ${JSON.stringify(mode)}`, 2);
  const list = (v: unknown) => (v as string[] | undefined)?.flatMap((x) => x.split(",")).map((x) => x.trim()).filter(Boolean);
  const headers: Record<string, string> = {};
  for (const h of (values.header as string[] | undefined) ?? []) {
    const at = h.indexOf(":");
    if (at <= 0) throw new CliError(`openapi: --header ${JSON.stringify(h)}: write it as 'Name: value'`, 2);
    headers[h.slice(0, at).trim()] = h.slice(at + 1).trim();
  }
  const o: OpenApiCliOptions = {
    ...(values["base-url"] !== undefined ? { baseUrl: values["base-url"] as string } : {}),
    ...(mode ? { mode } : {}),
    ...(list(values.include) ? { include: list(values.include) } : {}),
    ...(list(values.exclude) ? { exclude: list(values.exclude) } : {}),
    ...(values.methods !== undefined ? { methods: list([values.methods]) } : {}),
    ...(values["read-only"] ? { readOnly: true } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(values["output-schemas"] ? { outputSchemas: true } : {}),
    ...(values["allow-network"] ? { allowNetwork: true } : {}),
    ...(list(values["allow-host"]) ? { allowHosts: list(values["allow-host"]) } : {}),
  };
  if (values.check) {
    const r = await checkOpenApi(doc, o);
    process.stdout.write(r.text);
    return 0;
  }
  const started = performance.now();
  const built = await buildOpenApi(doc, { ...o, outfile: values.outfile as string | undefined, target: values.target as string | undefined, name: values.name as string | undefined, smol: values["no-smol"] !== true });
  process.stderr.write(`mcpbin: ${built.check.tools} tool${built.check.tools === 1 ? "" : "s"}, tools/list ${built.check.bytes} bytes (~${built.check.tokens} tokens)\n`);
  for (const w of built.check.warnings) process.stderr.write(`mcpbin: warning: ${w}\n`);
  process.stderr.write(`mcpbin: built in ${Math.round(performance.now() - started)} ms\n`);
  process.stdout.write(`${built.path}\n\n${clientConfig(built.path, built.name)}\n`);
  return 0;
}
