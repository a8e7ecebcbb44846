/** @module `mcpbin install`: writes a server into an MCP client's own configuration. */
import { basename, resolve } from "node:path";
import { existsSync, statSync } from "node:fs";
import { CliError } from "../errors.ts";
import { isSensitive } from "../env-scan.ts";
import { install, INSTALL_CLIENTS, parseEnvFlags, type InstallClient } from "../install.ts";
import { pickSource } from "../source.ts";
import { buildSource } from "../build-source.ts";
import { extra, parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = {
  config: { type: "string" },
  name: { type: "string" },
  env: { type: "string", multiple: true },
  arg: { type: "string", multiple: true },
  scope: { type: "string" },
  "dry-run": { type: "boolean" },
} as const satisfies ParseArgsOptionsConfig;

/** `mcpbin install`. */
export const installCommand: Command = {
  name: "install",
  help: `  mcpbin install <client> [executable | entry.ts | --config FILE] [--name NAME]
                 [--env KEY=VALUE]... [--arg ARG]... [--scope user|project] [--dry-run]
                 write the server into the client's own MCP configuration (a backup
                 beside it as <file>.bak; a second run adds no duplicate); client is
                 claude-desktop, claude-code, cursor or vscode; a source is built first`,
  options: OPTIONS,
  run,
};

/** `mcpbin install <client> [executable | entry.ts | --config FILE]`: see src/cli/install.ts. */
async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("install", args, OPTIONS);
  extra("install", positionals, 2);
  const client = positionals[0];
  if (!client || !(INSTALL_CLIENTS as readonly string[]).includes(client)) {
    throw new CliError(
      `install: ${client ? `unknown client "${client}"` : "name a client"}; expected one of ${INSTALL_CLIENTS.join(", ")}`,
      2,
    );
  }
  const scope = (values.scope ?? "user") as string;
  if (scope !== "user" && scope !== "project")
    throw new CliError(`install: --scope must be user or project; got "${scope}"`, 2);
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
  const r = install(
    {
      client: client as InstallClient,
      name: (values.name as string | undefined) ?? name,
      command,
      args: (values.arg ?? []) as string[],
      env,
      scope,
    },
    dryRun,
  );
  if (dryRun) {
    process.stdout.write(
      `${r.file} (${r.change === "unchanged" ? "already up to date" : r.change === "added" ? `would add "${r.name}"` : `would update "${r.name}"`}):\n${r.text}`,
    );
    return 0;
  }
  const what =
    r.change === "unchanged"
      ? `"${r.name}" is already in ${r.file}; nothing written`
      : `${r.change} "${r.name}" in ${r.file}${r.backup ? ` (previous file: ${r.backup})` : ""}`;
  process.stderr.write(`mcpbin: ${what}\n`);
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
    process.stderr.write(
      `mcpbin: install: the server reads ${missing.map((e) => e.name).join(", ")}; pass --env NAME=VALUE to set them\n`,
    );
    return;
  }
  for (const e of missing) {
    const answer = prompt(
      `${e.name}${e.sensitive ? " (secret, stored in the client's config file)" : ""} [empty: leave unset]:`,
    );
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
