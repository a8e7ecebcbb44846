// Mistakes that used to pass the build: each fails in one line that says what to change, and a failed build
// leaves a working executable in place.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { configSource, removeProjects, toolsModule, writeProject } from "../loader/fixture-project.ts";
import { mcpbin, oneLineError } from "./run-cli.ts";
import { SERVE_KEYS } from "../../src/shared/server-options.ts";

setDefaultTimeout(120_000);
afterAll(removeProjects);

const script = (body: string) => `import * as v from "valibot";\nimport { serve, tool } from "mcpbin";\n${body}\n`;

test("a tools path that does not exist fails build, dev and list in one line, and the working executable stays", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ name: "proj", tools: ["tools"] }),
    "tools/a.ts": toolsModule("alpha"),
  });
  expect((await mcpbin(["build", "--outfile", "dist/proj"], dir)).code).toBe(0);
  const before = readFileSync(join(dir, "dist/proj"));
  const broken = writeProject({
    "mcpbin.config.ts": configSource({ name: "proj", tools: ["tools", "tool"] }),
    "tools/a.ts": toolsModule("alpha"),
  });
  const line = oneLineError(await mcpbin(["build", "--outfile", join(dir, "dist/proj")], broken));
  expect(line).toStartWith('mcpbin: tools path "tool" does not exist (');
  expect(line).toEndWith('); fix the path, or remove it from "tools"');
  expect(readFileSync(join(dir, "dist/proj")).equals(before)).toBe(true);
  expect(oneLineError(await mcpbin(["list"], broken))).toContain('tools path "tool" does not exist');
  expect(oneLineError(await mcpbin(["dev"], broken))).toContain('tools path "tool" does not exist');
});

test("a server with no tool, resource or prompt fails the build: a project whose filters leave nothing, and a script serving []", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ name: "proj", tools: ["tools"], include: ["nothing_*"] }),
    "tools/a.ts": toolsModule("alpha"),
    "server.ts": script(`await serve({ name: "s", version: "1.0.0", tools: [] });`),
  });
  const built = await mcpbin(["build", "--outfile", "dist/proj"], dir);
  expect(built.code).toBe(1);
  // The filter's own warning comes first; the error is the last line.
  expect(built.stderr.trimEnd().split("\n").at(-1)).toBe(
    'mcpbin: mcpbin.config.ts: no tool, resource or prompt is active after include/exclude, so the server would serve nothing; check "tools", "include" and "exclude"',
  );
  expect(existsSync(join(dir, "dist/proj"))).toBe(false);
  expect(oneLineError(await mcpbin(["build", "server.ts", "--outfile", "dist/s"], dir))).toBe(
    "mcpbin: server.ts: serve() was given no tool, resource or prompt, so the server would serve nothing",
  );
  expect(existsSync(join(dir, "dist/s"))).toBe(false);
});

test("serve() and the config file refuse an unknown option key, naming the allowed keys", async () => {
  const dir = writeProject({
    "server.ts": script(
      `const a = tool({ name: "a", description: "a", run: () => 1 });\nawait serve({ name: "s", version: "1.0.0", tools: [a], maxInflight: 8 } as never);`,
    ),
    "mcpbin.config.ts": configSource({ name: "proj", tools: ["tools"], maxInflight: 8 }),
    "tools/a.ts": toolsModule("alpha"),
  });
  const fromScript = oneLineError(await mcpbin(["build", "server.ts", "--outfile", "dist/s"], dir));
  expect(fromScript).toStartWith("mcpbin: ");
  expect(fromScript).toEndWith(
    `serve(): "maxInflight" is not a known option (did you mean "maxInFlight"? allowed: ${SERVE_KEYS.join(", ")})`,
  );
  const fromConfig = oneLineError(await mcpbin(["list"], dir));
  expect(fromConfig).toStartWith(
    'mcpbin: mcpbin.config.ts: "maxInflight" is not a known key (did you mean "maxInFlight"? allowed: ',
  );
  expect(fromConfig).toContain("maxInFlight");
});

test("input that is not a schema: a raw JSON Schema object and the MCP SDK's zod-like shape each get a message saying which option to use", async () => {
  const raw = writeProject({
    "server.ts": script(
      `await serve({ name: "s", version: "1.0.0", tools: [tool({ name: "raw", description: "d", input: { type: "object", properties: { a: { type: "string" } } } as never, run: () => 1 })] });`,
    ),
  });
  expect(oneLineError(await mcpbin(["build", "server.ts", "--outfile", "dist/s"], raw))).toBe(
    'mcpbin: server.ts failed to load: tool "raw": "input" must be a valibot schema (v.object({...})), a Standard Schema such as zod 4\'s z.object({...}) or arktype\'s type({...}), or a function returning one; got a plain object (a raw JSON Schema goes in "inputSchema"/"outputSchema")',
  );
  // A zod-like shape: an object whose values are schemas (here valibot's, which are Standard Schemas too).
  const shape = writeProject({
    "server.ts": script(
      `await serve({ name: "s", version: "1.0.0", tools: [tool({ name: "shaped", description: "d", input: { a: v.string() } as never, run: () => 1 })] });`,
    ),
  });
  const line = oneLineError(await mcpbin(["build", "server.ts", "--outfile", "dist/s"], shape));
  expect(line).toStartWith('mcpbin: server.ts failed to load: tool "shaped": "input" must be');
  expect(line).toEndWith(
    "got an object of schemas, like the MCP SDK's zod shape { a: z.string() }: wrap it, z.object({...}) (zod 4) or v.object({...}) (valibot)",
  );
});

test("a syntax error fails build, list and dev with its file, line and column, in a script, a tools module and the config", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ name: "proj", tools: ["tools"] }),
    "tools/a.ts": `import { tool } from "mcpbin";\nexport const a = tool({ name: "a", description: "x", run: () => 1 );\n`,
    "server.ts": script(
      `const t = tool({ name: "a", description: "x", run: () => 1 );\nawait serve({ name: "s", version: "1.0.0", tools: [t] });`,
    ),
    "broken/mcpbin.config.ts": `import { defineConfig } from "mcpbin";\nexport default defineConfig({ name: "b", version: "1.0.0", tools: [] ;\n`,
  });
  // Bun's own words were "2 errors building <absolute path>": no position, no reason.
  const scriptLine = 'mcpbin: server.ts failed to load: server.ts:3:60: Expected "}" but found ")" (and 1 more)';
  expect(oneLineError(await mcpbin(["build", "server.ts", "--outfile", "dist/s"], dir))).toBe(scriptLine);
  expect(oneLineError(await mcpbin(["list", "server.ts"], dir))).toBe(scriptLine);
  expect(existsSync(join(dir, "dist/s"))).toBe(false);
  // dev reports it as the server's start-up error, not an AggregateError stack.
  expect(oneLineError(await mcpbin(["dev", "server.ts"], dir))).toBe(
    'mcpbin: server.ts:3:60: Expected "}" but found ")" (and 1 more)',
  );
  expect(oneLineError(await mcpbin(["list"], dir))).toBe(
    'mcpbin: tools/a.ts failed to load: tools/a.ts:2:67: Expected "}" but found ")" (and 1 more)',
  );
  expect(oneLineError(await mcpbin(["list", "--config", "broken/mcpbin.config.ts"], dir))).toMatch(
    /^mcpbin: broken\/mcpbin\.config\.ts: the config file failed to load: broken\/mcpbin\.config\.ts:2:\d+: Expected "\}" but found ";"/,
  );
});

test("a module with a single syntax error (Bun throws a lone BuildMessage) fails build, list and dev with its file, line and column too", async () => {
  const dir = writeProject({
    "server.ts": script(`await serve({ name: "s", version: "1.0.0", tools: [ });`),
  });
  // It used to say only "Unexpected }" (build, list) and "BuildMessage: Unexpected }" (dev).
  const scriptLine = "mcpbin: server.ts failed to load: server.ts:3:53: Unexpected }";
  expect(oneLineError(await mcpbin(["build", "server.ts", "--outfile", "dist/s"], dir))).toBe(scriptLine);
  expect(oneLineError(await mcpbin(["list", "server.ts"], dir))).toBe(scriptLine);
  expect(oneLineError(await mcpbin(["dev", "server.ts"], dir))).toBe("mcpbin: server.ts:3:53: Unexpected }");
});
