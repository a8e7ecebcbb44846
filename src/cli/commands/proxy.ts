/** @module `mcpbin proxy`: one server fronting other servers (a servers file, or a remote URL). */
import { proxy } from "../proxy.ts";
import { extra, parse } from "../command.ts";
import pkg from "../../../package.json" with { type: "json" };
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = {
  servers: { type: "string" },
  url: { type: "string" },
  header: { type: "string", multiple: true },
  oauth: { type: "boolean" },
  "client-id": { type: "string" },
  naming: { type: "string" },
  name: { type: "string" },
  check: { type: "boolean" },
  http: { type: "string" },
  stdio: { type: "boolean" },
} as const satisfies ParseArgsOptionsConfig;

/** `mcpbin proxy`. */
export const proxyCommand: Command = {
  name: "proxy",
  help: `  mcpbin proxy --servers FILE [--naming STRATEGY] [--http [host:]port | --stdio] [--check]
                 one server fronting every entry of an mcpServers (Claude Desktop, Cursor)
                 or servers (VS Code) file; STRATEGY is on-collision (default: colliding
                 names become <server>__<tool>), prefix (all of them) or none; --check
                 prints per upstream its tools, bytes, tokens and name problems
  mcpbin proxy --url URL [--header "Name: value"]... [--name NAME] [--oauth [--client-id ID]]
                 a remote Streamable HTTP server served here over stdio (or --http);
                 --oauth signs in when it asks (the sign-in URL is printed on stderr),
                 --client-id names a client registered with its authorization server`,
  options: OPTIONS,
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("proxy", args, OPTIONS);
  extra("proxy", positionals, 0);
  // --http/--stdio stay in this process's arguments, where serve() reads them.
  return proxy(
    {
      servers: values.servers as string | undefined,
      url: values.url as string | undefined,
      headers: (values.header as string[] | undefined) ?? [],
      oauth: values.oauth === true,
      clientId: values["client-id"] as string | undefined,
      naming: values.naming as string | undefined,
      name: values.name as string | undefined,
      check: values.check === true,
    },
    pkg.version,
  );
}
