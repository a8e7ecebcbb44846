/** @module `mcpbin dev`: serves a script or project from source (stdio or HTTP), optionally reloading on change. */
import { dirname } from "node:path";
import { existsSync, rmSync } from "node:fs";
import { displayPath } from "../../config/load.ts";
import { CliError } from "../errors.ts";
import { guardedEntry } from "../guarded-entry.ts";
import { pickSource } from "../source.ts";
import { devWatch } from "../watch.ts";
import { keepTempDir } from "../../build/temp-dirs.ts";
import { loadProject } from "../../loader/project.ts";
import { serve } from "../../serve/serve.ts";
import { extra, parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = {
  config: { type: "string" },
  http: { type: "string" },
  stdio: { type: "boolean" },
  watch: { type: "boolean" },
} as const satisfies ParseArgsOptionsConfig;

/** `mcpbin dev`. */
export const devCommand: Command = {
  name: "dev",
  help: `  mcpbin dev [entry.ts | --config FILE] [--http [host:]port | --stdio] [--watch]
                 serve a script or a project from source over stdio (or HTTP); --watch
                 reloads its tools when a file changes, the client stays connected`,
  options: OPTIONS,
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("dev", args, OPTIONS);
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
  const transport = [
    ...(values.http !== undefined ? ["--http", values.http as string] : []),
    ...(values.stdio ? ["--stdio"] : []),
  ];
  if (!existsSync(src.path)) throw new CliError(`dev: entry not found: ${displayPath(src.path) || src.path}`);
  // The script runs under the same generated entry a build compiles: stdout guard first, and an error
  // at start-up is one line (`mcpbin: <message>`) and exit 1, not Bun's source dump.
  const entry = guardedEntry(src.path, {
    name: "mcpbin",
    warnUnserved: true,
    runAsMain: true,
    label: displayPath(src.path),
  });
  keepTempDir(dirname(entry)); // this command forwards signals to the server and removes the entry once it exits
  try {
    const p = Bun.spawn([process.execPath, entry, ...transport], {
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    });
    const forward = (sig: NodeJS.Signals) => p.kill(sig);
    process.on("SIGTERM", forward);
    process.on("SIGINT", forward);
    return await p.exited;
  } finally {
    rmSync(dirname(entry), { recursive: true, force: true });
  }
}
