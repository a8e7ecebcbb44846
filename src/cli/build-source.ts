/** @module Compiling a script or a project as `mcpbin build` does (progress on stderr), shared by `build` and `install`. */
import { basename } from "node:path";
import { displayPath } from "../config/load.ts";
import { upstreamVars } from "../client/servers-file.ts";
import { servedHttp, type ServedHttp } from "../build/precompute.ts";
import { countsLine, countsOf } from "../build/counts.ts";
import { checkScript, compile } from "./build.ts";
import { scanEnv } from "./env-scan.ts";
import { buildProject, relativeCommands } from "./project-build.ts";
import type { Source } from "./source.ts";

/**
 * Compiles a script or project like `mcpbin build` (progress on stderr): the executable's path, the server's
 * name, the environment variables its code reads and the HTTP endpoint it is configured for.
 */
export async function buildSource(
  src: Source,
  o: { outfile?: string; target?: string; smol?: boolean },
): Promise<{ path: string; name: string; serverName: string; env: string[]; http?: ServedHttp }> {
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
    const counts = countsOf(built.project.options);
    const from =
      built.modules.length > 0 || counts.upstreams === 0
        ? ` from ${n(built.modules.length, "module")}${left ? ` (${left} without an active tool left out)` : ""}`
        : "";
    process.stderr.write(`mcpbin: ${countsLine(counts)}${from}\n`);
  } else {
    const checked = await checkScript(src.path);
    // As for a config: a relative upstream command would be resolved from the client's working directory.
    relativeCommands(
      Object.fromEntries(Object.entries(checked.upstreamCommands ?? {}).map(([n, command]) => [n, { command }])),
      src.path,
      displayPath(src.path) || src.path,
    );
    path = await compile({
      entry: src.path,
      ...o,
      schemas: checked.schemas,
      views: checked.views,
      validators: checked.validators,
    });
    name = basename(path).replace(/\.exe$/, "");
    serverName = checked.name;
    // As for a config: the `${VAR}`s of the script's own `serve({ upstreams })`, which the check run saw.
    env = [...new Set([...scanEnv(src.path).map((e) => e.name), ...(checked.upstreamEnv ?? [])])].sort();
    http = checked.http;
    process.stderr.write(
      `mcpbin: ${countsLine(checked.counts ?? { tools: checked.tools, resources: 0, prompts: 0, upstreams: 0 })}\n`,
    );
  }
  process.stderr.write(`mcpbin: built in ${Math.round(performance.now() - started)} ms\n`);
  return { path, name, serverName, env, ...(http ? { http } : {}) };
}
