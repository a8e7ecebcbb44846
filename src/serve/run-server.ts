/** @module Runs a server's Registry for the process: over stdio, or over Streamable HTTP when asked; tracing around it. */
import { contract } from "../runtime/contract.ts";
import { guardStdout, stdinIsTerminal } from "../runtime/stdout-guard.ts";
import { stateKeyProblem } from "../ask/state.ts";
import type { Registry } from "../server/registry.ts";
import type { ServerOptions } from "../shared/server-options.ts";
import { serveStdio } from "../transport/stdio.ts";
import { HttpOptionsError, resolveHttp, type ResolvedHttpOptions } from "../transport/http-options.ts";
import { isCompiledExecutable } from "../runtime/compiled.ts";
import { startTracing, stopTracing } from "../telemetry/start.ts";
import { installedCollector } from "../runtime/collector.ts";
import { logName } from "../runtime/log-name.ts";

/**
 * Serves a registry (see `serve()`): under `mcpbin list`/`call`/`build` (a collector is installed) it only
 * hands the options over, with the tools served at that moment, and resolves.
 * @param registry - the server.
 * @param given - the options it was made from.
 * @param hooks - `before`: runs before the first message is read (after the command line was checked; told whether it serves HTTP); `after`: once
 *   the server stopped, before the promise settles (the upstreams of createServer() start and end there).
 * @returns a promise that settles once the server stopped (stdin closed, or HTTP drained).
 * @throws HttpOptionsError on a bad `--http` value or `http` option (a compiled executable prints it as one line and exits 2).
 */
export function serveRegistry(
  registry: Registry,
  given: ServerOptions,
  hooks: { before?: (how: { readonly http: boolean }) => Promise<void>; after?: () => Promise<void> } = {},
): Promise<void> {
  // For `mcpbin dev`, which says so when a script finishes loading without calling serve().
  contract().served = true;
  const collect = installedCollector<ServerOptions>();
  if (collect) return Promise.resolve(collect({ ...given, tools: [...registry.tools.values()] }));
  const compiled = isCompiledExecutable();
  if (compiled) answerInfoFlags(registry, defaultHttp(given));
  let http: ResolvedHttpOptions | undefined;
  try {
    http = resolveHttp(process.argv.slice(2), given.http, process.env, compiled);
  } catch (e) {
    // A compiled executable's user mistyped its command line: one line and exit 2, no stack trace.
    if (!(compiled && e instanceof HttpOptionsError)) throw e;
    process.stderr.write(`${logName()}: ${e.message}\n`);
    process.exit(2);
  }
  // The requestState key (2026-07-28 asks): a short MCPBIN_STATE_KEY is refused before serving.
  const keyProblem = stateKeyProblem(process.env);
  if (keyProblem) {
    process.stderr.write(`${logName()}: ${keyProblem}\n`);
    process.exit(2);
  }
  return startTracing(registry.options.name, http ? "tcp" : "pipe")
    .then(() => hooks.before?.({ http: http !== undefined }))
    .then(async () => {
      if (!http) {
        // Started by hand in a terminal: say what this is, instead of waiting silently.
        if (stdinIsTerminal()) process.stderr.write(ttyBanner(registry, compiled));
        return serveStdio(registry);
      }
      const { serveHttp } = await import("../transport/http.ts");
      let served: ReturnType<typeof serveHttp>;
      try {
        served = serveHttp(registry, http);
      } catch (e) {
        // The port is taken (or cannot be bound): one line and exit 1, whoever holds it.
        if (!(e instanceof HttpOptionsError)) throw e;
        process.stderr.write(`${logName()}: ${e.message}\n`);
        process.exit(1);
      }
      return served.stopped;
    })
    .finally(() => hooks.after?.())
    .then(stopTracing)
    .then(() => {
      // Nothing of ours holds the event loop now (stdin cancelled, timers cleared, handlers removed),
      // so the process normally ends at once. Only tool code can still hold it (a timer or socket of a
      // tool that ignored its abort signal): that must not keep an orphan alive after stdin closed.
      setTimeout(() => process.exit(process.exitCode ?? 0), 200).unref();
    });
}

/** The running executable's own file name, without `.exe`. */
function executableName(): string {
  return process.execPath
    .split(/[\\/]/)
    .pop()!
    .replace(/\.exe$/i, "");
}

/** Where the server listens when started with no option (its `http` option), or undefined when that is stdio. */
function defaultHttp(given: ServerOptions): ResolvedHttpOptions | undefined {
  try {
    return resolveHttp([], given.http, {}, false);
  } catch {
    return undefined; // a bad option is reported when the server starts
  }
}

/** The usage lines and client configuration of `--help`, for a server that defaults to stdio or to HTTP. */
function helpBody(name: string, http: ResolvedHttpOptions | undefined): string[] {
  const cmd = JSON.stringify(process.execPath);
  if (!http) {
    return [
      `  (no option)         serve MCP over stdio: an MCP client starts this executable and talks on stdin/stdout`,
      `  --http [host:]port  serve Streamable HTTP at http://host:port/mcp instead (host 127.0.0.1 unless given;`,
      `                      MCPBIN_HTTP_TOKEN=<token> requires a bearer token)`,
      `  --version, --help   print the version or this text`,
      ``,
      `A client's configuration holds the absolute path of this file, e.g. for Claude Desktop and Cursor:`,
      `  { "mcpServers": { ${JSON.stringify(name)}: { "command": ${cmd}, "args": [] } } }`,
      `Claude Code: claude mcp add ${name} -- ${process.execPath}`,
    ];
  }
  const url = `http://${http.host.includes(":") ? `[${http.host}]` : http.host}:${http.port}${http.path}`;
  return [
    `  (no option)         serve Streamable HTTP at ${http.port === 0 ? url.replace(":0/", ":<a free port>/") : url} (this server's default;`,
    `                      MCPBIN_HTTP_TOKEN=<token> requires a bearer token)`,
    `  --stdio             serve MCP over stdio instead: an MCP client starts this executable and talks on stdin/stdout`,
    `  --http [host:]port  serve Streamable HTTP at another address`,
    `  --version, --help   print the version or this text`,
    ``,
    `Start it, then give a client its URL, e.g. for Claude Desktop and Cursor:`,
    `  { "mcpServers": { ${JSON.stringify(name)}: { "url": ${JSON.stringify(url)} } } }`,
    `Claude Code: claude mcp add --transport http ${name} ${url}`,
    `Or let the client start it over stdio (note "--stdio"):`,
    `  { "mcpServers": { ${JSON.stringify(name)}: { "command": ${cmd}, "args": ["--stdio"] } } }`,
  ];
}

/** Before a `--`: a compiled executable's own `--version` and `--help`/`-h` (printed on stdout, exit 0). */
function answerInfoFlags(registry: Registry, http: ResolvedHttpOptions | undefined): void {
  const argv = process.argv.slice(2);
  const end = argv.indexOf("--");
  const flags = end === -1 ? argv : argv.slice(0, end);
  const name = executableName();
  const o = registry.options;
  // The stdout guard moved fd 1 away; the answer goes to the real stdout.
  const out = (text: string) => (require("node:fs") as typeof import("node:fs")).writeSync(guardStdout().fd, text);
  if (flags.includes("--version")) {
    out(`${name} ${o.version}\n`);
    process.exit(0);
  }
  if (flags.includes("--help") || flags.includes("-h")) {
    out(
      [
        `${name} ${o.version}: an MCP server${o.title ? ` (${o.title})` : ""}, ${registry.tools.size} tool${registry.tools.size === 1 ? "" : "s"}`,
        ``,
        `Usage: ${name} [--stdio | --http [host:]port] [--version] [--help]`,
        ...helpBody(name, http),
        ``,
      ].join("\n"),
    );
    process.exit(0);
  }
}

/** What an executable says on stderr when a person starts it in a terminal. */
function ttyBanner(registry: Registry, compiled: boolean): string {
  const o = registry.options;
  const name = compiled ? executableName() : o.name;
  const path = compiled ? process.execPath : "/abs/path/to/the/executable";
  return (
    `${name} ${o.version}: an MCP server (${registry.tools.size} tool${registry.tools.size === 1 ? "" : "s"}). It speaks JSON-RPC on stdin/stdout and is meant to be started by an MCP client;\n` +
    `configure one with the absolute path of this executable, e.g. claude mcp add ${name} -- ${path}` +
    `${compiled ? ` (${name} --help for more)` : ""}. Waiting for messages on stdin; Ctrl-D ends.\n`
  );
}
