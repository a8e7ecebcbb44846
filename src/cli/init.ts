/** @module mcpbin init: scaffolds a project that builds and tests out of the box. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { displayPath } from "../config/load.ts";
import { CliError } from "./errors.ts";
import { nameProblem } from "../skills/frontmatter.ts";
import pkg from "../../package.json" with { type: "json" };

/** The files of a new project, by path relative to its directory. */
export function scaffoldFiles(name: string, mcpbinSpec: string): Record<string, string> {
  const manifest = {
    name,
    version: "0.1.0",
    private: true,
    type: "module",
    scripts: {
      build: "mcpbin build",
      dev: "mcpbin dev",
      list: "mcpbin list",
      test: "bun test",
      typecheck: "tsc --noEmit",
      release: "mcpbin release",
    },
    dependencies: { mcpbin: mcpbinSpec, valibot: pkg.dependencies.valibot },
    devDependencies: {
      bun: pkg.dependencies.bun,
      "bun-types": pkg.devDependencies["bun-types"],
      typescript: pkg.devDependencies.typescript,
    },
    // npm runs a dependency's install scripts only when allowed: bun's postinstall links the platform binary;
    // mcpbin's prepare builds dist/session.mjs (the Node build of mcpbin/session) when it is installed from a clone.
    allowScripts: { bun: true, mcpbin: true },
  };
  return {
    "package.json": JSON.stringify(manifest, null, 2) + "\n",
    "mcpbin.config.ts": `// The server: its identity and where its tools live (see mcpbin's docs/reference.md, "Project style").
import { defineConfig } from "mcpbin";

export default defineConfig({
  name: ${JSON.stringify(name)},
  version: "0.1.0",
  instructions: "Greets people by name.",
  tools: ["tools"], // every .ts module in tools/ (recursively); files named _*.ts or *.test.ts are skipped
  // include: ["greet*"], exclude: ["debug_*"],  // filters by tool name (globs)
});
`,
    "tools/greet.ts": `// A tool: exported from a module in tools/, found by mcpbin.config.ts.
import * as v from "valibot";
import { tool } from "mcpbin";

export const greet = tool({
  name: "greet",
  title: "Greet",
  description: "Say hello to someone by name.",
  input: v.object({ name: v.pipe(v.string(), v.nonEmpty("Give the name of someone to greet: it is empty"), v.description("Who to greet")) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  // What run() throws reaches the client verbatim as an isError result; add maskErrors() to the server's middleware
  // (docs/middleware.md) to send "internal error" instead, keeping the text of a ToolError meant for the model.
  run: ({ name }) => \`Hello, \${name}!\`,
});
`,
    "test/greet.test.ts": `// A tool is an ordinary async function: test it without a server.
import { expect, test } from "bun:test";
import { greet } from "../tools/greet.ts";

test("greet says hello", async () => {
  expect(await greet({ name: "Ada" })).toBe("Hello, Ada!");
});

test("greet refuses an empty name", async () => {
  await expect(greet({ name: "" })).rejects.toThrow("Invalid arguments for tool greet");
});
`,
    "tsconfig.json":
      JSON.stringify(
        {
          compilerOptions: {
            target: "ESNext",
            module: "ESNext",
            moduleResolution: "bundler",
            types: ["bun-types"],
            strict: true,
            noEmit: true,
            allowImportingTsExtensions: true,
            skipLibCheck: true,
          },
          include: ["mcpbin.config.ts", "tools", "test"],
        },
        null,
        2,
      ) + "\n",
    ".gitignore": "node_modules/\ndist/\n",
    "README.md": `# ${name}

An MCP server built with mcpbin ([its README](node_modules/mcpbin/README.md) after \`npm install\`): tools in \`tools/\`, one executable.

\`\`\`sh
npm install
npm test                                   # bun test: the tools as plain functions
npx mcpbin list                            # the tools, their parameters and source files
npx mcpbin call greet '{"name": "Ada"}'    # run one tool as a client would
npx mcpbin build                           # dist/${name}: one executable, prints client configuration
\`\`\`

Add a tool: a new module in \`tools/\` exporting \`tool({...})\`. Leave tools out with
\`include\`/\`exclude\` in \`mcpbin.config.ts\`.

## Client configuration

Use the absolute path of the executable (\`npx mcpbin build\` prints it):

\`\`\`jsonc
// Claude Desktop (claude_desktop_config.json) and Cursor (.cursor/mcp.json)
{ "mcpServers": { "${name}": { "command": "/abs/path/dist/${name}", "args": [] } } }
// VS Code (.vscode/mcp.json)
{ "servers": { "${name}": { "type": "stdio", "command": "/abs/path/dist/${name}", "args": [] } } }
\`\`\`

\`\`\`sh
claude mcp add ${name} -- /abs/path/dist/${name}   # Claude Code
\`\`\`
`,
  };
}

/** A project name from a directory name (`My Tools` → `my-tools`). */
export function projectName(dir: string): string {
  return (
    basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "mcp-server"
  );
}

/**
 * The scaffold's `mcpbin` dependency. From a clone (no `node_modules` in `root`): a `file:` link to it. From an
 * installed package: what the project that installed it asked for, when that is not a registry range (a
 * tarball or folder as `file:<absolute path>`, resolved against that project; a git or URL spec as written),
 * since mcpbin is not on the npm registry and `^<version>` would not install; else `^<version>`.
 * @param root - the mcpbin package's folder.
 */
export function defaultMcpbinSpec(root: string): string {
  const installed = [...root.matchAll(/[\\/]node_modules(?=[\\/]|$)/g)].pop();
  if (!installed) return `file:${root}`;
  return installedSpec(root.slice(0, installed.index) || "/") ?? `^${pkg.version}`;
}

/**
 * The `mcpbin` spec in `project`'s package.json when it names a tarball, a folder, git or a URL (a `file:` or
 * relative path made absolute against `project`); undefined for a registry range, a missing or unreadable file.
 */
function installedSpec(project: string): string | undefined {
  let manifest: Record<string, Record<string, unknown> | undefined>;
  try {
    manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
  } catch {
    return undefined;
  }
  for (const field of ["dependencies", "devDependencies", "optionalDependencies"]) {
    const spec = manifest[field]?.mcpbin;
    if (typeof spec !== "string") continue;
    const path = spec.startsWith("file:")
      ? spec.slice(5)
      : /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/])/.test(spec)
        ? spec
        : undefined;
    if (path !== undefined) return `file:${resolve(project, path)}`;
    if (/^(git\+|git:|github:|gitlab:|bitbucket:|https?:)/.test(spec)) return spec;
    return undefined;
  }
  return undefined;
}

/** A new skill's SKILL.md: the frontmatter every skill needs, and where to go on. */
function skillScaffold(name: string): string {
  return `---
name: ${name}
description: Say in one sentence what this skill helps with, and when to use it
---
# ${name}

Instructions the agent follows when it loads this skill. Keep this file short; put long references in files
beside it (e.g. references/GUIDE.md) and name them here. mcpbin serves every file of this folder as
skill://${name}/<file> (docs/skills.md in the mcpbin repository).
`;
}

/**
 * Writes a new project into `dir` (created if needed). Nothing is overwritten.
 * @param dir - the project directory.
 * @param mcpbinSpec - the `mcpbin` dependency in package.json. Default {@link defaultMcpbinSpec}.
 * @param o - `skill`: also scaffold `skills/<skill>/SKILL.md` and serve the folder; `given`: the directory as the user
 *   typed it, which the summary repeats (an absolute path stays absolute); without it, a path relative to here.
 * @returns the files written and a summary for stdout.
 * @throws CliError when one of the files already exists (nothing is written then).
 */
export function initProject(
  dir: string,
  mcpbinSpec = defaultMcpbinSpec(resolve(import.meta.dir, "../..")),
  o: { skill?: string; given?: string } = {},
): { files: string[]; summary: string } {
  const name = projectName(dir);
  const files = scaffoldFiles(name, mcpbinSpec);
  if (o.skill !== undefined) {
    const bad = nameProblem(o.skill);
    if (bad) throw new CliError(`init: --skill ${JSON.stringify(o.skill)}: ${bad} (e.g. --skill release-notes)`, 2);
    files["mcpbin.config.ts"] = files["mcpbin.config.ts"]!.replace(
      /^(  tools: \["tools"\],.*)$/m,
      `$1\n  skills: ["skills"], // Agent Skills: each folder with a SKILL.md, embedded in the executable`,
    );
    files[`skills/${o.skill}/SKILL.md`] = skillScaffold(o.skill);
  }
  const taken = Object.keys(files).filter((f) => existsSync(join(dir, f)));
  if (taken.length)
    throw new CliError(
      `init: ${displayPath(join(dir, taken[0]!))} already exists; nothing written (choose an empty directory)`,
    );
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
  }
  // The directory as the user typed it (trailing separators dropped); else relative to here unless that climbs far.
  const rel = relative(process.cwd(), dir);
  const typed = o.given?.replace(/(.)[\\/]+$/, "$1");
  const where = rel === "" ? "." : (typed ?? (rel.startsWith(`..${sep}..`) ? dir : rel));
  const created =
    where === "."
      ? `Created project ${name} in the current directory`
      : `Created ${where}${sep}${name === basename(dir) ? "" : ` (package name ${name})`}`;
  const summary = [
    `${created}: ${Object.keys(files).join(", ")}`,
    ``,
    `Next:`,
    ...(where === "."
      ? []
      : [`  cd ${/^[A-Za-z0-9_./-]+$/.test(where) ? where : `'${where.replaceAll("'", `'\\''`)}'`}`]),
    `  npm install && npm test`,
    `  npx mcpbin call greet '{"name": "Ada"}'`,
    `  npx mcpbin build`,
  ].join("\n");
  return { files: Object.keys(files), summary };
}
