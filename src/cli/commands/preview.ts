/** @module `mcpbin preview`: a local MCP Apps host for a server's views. */
import { displayPath } from "../../config/load.ts";
import { CliError } from "../errors.ts";
import { pickSource } from "../source.ts";
import { extra, parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = { config: { type: "string" }, port: { type: "string" } } as const satisfies ParseArgsOptionsConfig;

/** `mcpbin preview`. */
export const previewCommand: Command = {
  name: "preview",
  help: `  mcpbin preview [entry.ts | --config FILE] [--port N]
                 a local MCP Apps host on http://127.0.0.1:N (default any free port):
                 each app's view in a sandboxed iframe, its tools callable from the page`,
  options: OPTIONS,
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("preview", args, OPTIONS);
  extra("preview", positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], "preview");
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(`preview: --port must be a TCP port from 0 to 65535; got ${JSON.stringify(values.port)}`, 2);
  const { startPreview } = await import("../../preview/host.ts");
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
