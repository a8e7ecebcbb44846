/** @module Ready-to-paste client configuration (Claude Desktop, Claude Code, Cursor, VS Code) for a built executable. */
import type { ServedHttp } from "../build/precompute.ts";

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
