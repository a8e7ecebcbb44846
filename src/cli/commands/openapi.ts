/** @module `mcpbin openapi`: an OpenAPI document as one executable (or its --check report). */
import { CliError } from "../errors.ts";
import { clientConfig } from "../client-config.ts";
import { buildOpenApi, checkOpenApi, type OpenApiCliOptions } from "../openapi.ts";
import { compileTarget, extra, parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = {
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
  "redirect-origin": { type: "string", multiple: true },
  "max-redirects": { type: "string" },
  "no-smol": { type: "boolean" },
} as const satisfies ParseArgsOptionsConfig;

/** `mcpbin openapi`. */
export const openapiCommand: Command = {
  name: "openapi",
  help: `  mcpbin openapi <doc> [--base-url URL] [--outfile PATH | --check] [--mode tools|dynamic]
                 [--include P]... [--exclude P]... [--methods LIST] [--read-only]
                 [--header 'Name: value']... [--output-schemas] [--name NAME] [--target TARGET] [--no-smol]
                 [--allow-network [--allow-host HOST]...] [--redirect-origin ORIGIN]... [--max-redirects N]
                 an OpenAPI 3.0/3.1 document (JSON or YAML) as one executable, a tool per
                 operation (or three in dynamic mode); --check prints the tool count, bytes,
                 estimated tokens, names, credential variables and warnings instead.
                 P: an operationId/name glob, tag:NAME or path:GLOB`,
  options: OPTIONS,
  run,
};

/** `--max-redirects N`: a whole number ≥ 0. @throws CliError (exit 2) otherwise. */
function redirectCount(v: string): number {
  if (!/^\d+$/.test(v))
    throw new CliError(
      `openapi: --max-redirects takes a whole number ≥ 0 (0: never follow), not ${JSON.stringify(v)}`,
      2,
    );
  return Number(v);
}

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("openapi", args, OPTIONS);
  extra("openapi", positionals, 1);
  const doc = positionals[0];
  if (!doc)
    throw new CliError(
      `openapi needs a document: mcpbin openapi ./openapi.yaml --base-url https://api.example.com --outfile dist/api`,
      2,
    );
  const mode = values.mode as string | undefined;
  if (mode !== undefined && mode !== "tools" && mode !== "dynamic")
    throw new CliError(`openapi: --mode is tools or dynamic, not ${JSON.stringify(mode)}`, 2);
  const list = (v: unknown) =>
    (v as string[] | undefined)
      ?.flatMap((x) => x.split(","))
      .map((x) => x.trim())
      .filter(Boolean);
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
    ...(list(values["redirect-origin"]) ? { redirectOrigins: list(values["redirect-origin"]) } : {}),
    ...(values["max-redirects"] !== undefined
      ? { maxRedirects: redirectCount(values["max-redirects"] as string) }
      : {}),
  };
  if (values.check) {
    const r = await checkOpenApi(doc, o);
    process.stdout.write(r.text);
    return 0;
  }
  const started = performance.now();
  const built = await buildOpenApi(doc, {
    ...o,
    outfile: values.outfile as string | undefined,
    target: compileTarget("openapi", values.target as string | undefined),
    name: values.name as string | undefined,
    smol: values["no-smol"] !== true,
  });
  process.stderr.write(
    `mcpbin: ${built.check.tools} tool${built.check.tools === 1 ? "" : "s"}, tools/list ${built.check.bytes} bytes (~${built.check.tokens} tokens)\n`,
  );
  for (const w of built.check.warnings) process.stderr.write(`mcpbin: warning: ${w}\n`);
  process.stderr.write(`mcpbin: built in ${Math.round(performance.now() - started)} ms\n`);
  process.stdout.write(`${built.path}\n\n${clientConfig(built.path, built.name, { env: built.check.env })}\n`);
  return 0;
}
