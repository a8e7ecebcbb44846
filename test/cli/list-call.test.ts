// mcpbin list and mcpbin call: output for a project config and for a script entry, and one-line errors.
import { expect, test, setDefaultTimeout, afterAll } from "bun:test";
import { mcpbin, oneLineError } from "./run-cli.ts";
import { configSource, toolsModule, writeProject, removeProjects } from "../loader/fixture-project.ts";

afterAll(removeProjects);

// Each test spawns the CLI or compiles; the 2-core machine may be busy with other suites.
setDefaultTimeout(60_000);

const PROJECT = "examples/project/mcpbin.config.ts";

test("list: a project's tools as a table with parameters, required parameters and source", async () => {
  const r = await mcpbin(["list", "--config", PROJECT]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(
    [
      "project-example 1.0.0: 5 tools",
      "",
      "NAME        TITLE       PARAMETERS  REQUIRED  SOURCE",
      "snake_case  -           text        text      tools/text/case.ts",
      "title_case  Title case  text        text      tools/text/case.ts",
      "word_count  -           text, top   text      tools/text/count.ts",
      "add         -           a, b        a, b      tools/math/arith.ts",
      "divide      -           a, b        a, b      tools/math/arith.ts",
      "",
    ].join("\n"),
  );
});

test("list --json: the same as JSON; a positional mcpbin.config.ts is a config", async () => {
  const r = await mcpbin(["list", PROJECT, "--json"]);
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out.name).toBe("project-example");
  expect(out.tools.map((t: any) => t.name)).toEqual(["snake_case", "title_case", "word_count", "add", "divide"]);
  expect(out.tools[2]).toEqual({
    name: "word_count",
    title: null,
    description: "Count the words of a text, and how often each occurs.",
    parameters: ["text", "top"],
    required: ["text"],
    source: { dir: "tools/text", file: "count.ts" },
  });
});

test("list of a script entry collects its tools without serving (stdin stays open, no protocol output); --json names the script as their source", async () => {
  const r = await mcpbin(["list", "examples/toolkit/server.ts", "--json"]);
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out.tools.map((t: any) => t.name)).toEqual([
    "text_stats",
    "slugify",
    "convert_units",
    "days_between",
    "hash_text",
  ]);
  // A script's tools name the script as their source, relative to the working directory like the table's column.
  expect(out.tools[1].source).toEqual({ dir: "examples/toolkit", file: "server.ts" });
  const table = await mcpbin(["list", "examples/toolkit/server.ts"]);
  expect(table.stdout).toContain(
    "slugify        -                   text, maxLength  text             examples/toolkit/server.ts\n",
  );
});

test("list in a directory with warnings prints them on stderr and the table on stdout", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools", "empty"], exclude: ["nope_*"] }),
    "tools/a.ts": toolsModule("alpha"),
    "empty/_helper.ts": "export {};",
  });
  const r = await mcpbin(["list"], dir);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("alpha  -      -           -         tools/a.ts");
  expect(r.stderr).toContain('mcpbin: warning: tools directory "empty" holds no tool modules');
  expect(r.stderr).toContain('mcpbin: warning: exclude pattern "nope_*" matches no tool (tools: alpha)');
});

test("list of a config with upstreams names them (transport, start) and never their secrets, without starting them", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({
      tools: [],
      upstreams: {
        gh: {
          command: "/nonexistent/github-mcp",
          args: ["--token", "s3cret-arg"],
          env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" },
        },
        docs: {
          url: "https://docs.example.com/mcp?key=s3cret-url",
          headers: { Authorization: "Bearer s3cret-header" },
          start: "lazy",
        },
        old: { command: "/nonexistent/old", disabled: true },
      },
    }),
  });
  const r = await mcpbin(["list"], dir);
  expect(r.code).toBe(0);
  // A started upstream would have said "cannot start" on stderr.
  expect(r.stderr).toBe("");
  expect(r.stdout).toBe(
    [
      "t 1.0.0: 0 tools of its own, 3 upstreams",
      "",
      "NAME  TITLE  PARAMETERS  REQUIRED  SOURCE",
      "",
      "UPSTREAM  TRANSPORT  START",
      "gh        stdio      eager",
      "docs      http       lazy",
      "old       stdio      disabled",
      "(their tools join when the server runs; mcpbin list shows the own tools only)",
      "",
    ].join("\n"),
  );
  const json = await mcpbin(["list", "--json"], dir);
  expect(JSON.parse(json.stdout).upstreams).toEqual([
    { name: "gh", transport: "stdio", start: "eager" },
    { name: "docs", transport: "http", start: "lazy" },
    { name: "old", transport: "stdio", start: "disabled" },
  ]);
  expect(json.stdout + r.stdout).not.toContain("s3cret");
});

test("list and call end even when a module leaves a timer running", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools"] }),
    "tools/poller.ts": `setInterval(() => {}, 1000);\n` + toolsModule("poll"),
  });
  expect((await mcpbin(["list", "--json"], dir)).code).toBe(0);
  expect(await mcpbin(["call", "poll"], dir)).toEqual({ code: 0, stdout: "poll\n", stderr: "" });
});

test("call: runs one tool in-process and prints what a client would see", async () => {
  const text = await mcpbin(["call", "title_case", '{"text":"hello wORLD"}', "--config", PROJECT]);
  expect(text).toEqual({ code: 0, stdout: "Hello World\n", stderr: "" });

  const json = await mcpbin(["call", "word_count", '{"text":"b a b"}', "--config", PROJECT, "--json"]);
  expect(json.code).toBe(0);
  expect(JSON.parse(json.stdout)).toEqual({
    content: [{ type: "text", text: '{"words":3,"top":[{"word":"b","count":2},{"word":"a","count":1}]}' }],
    structuredContent: {
      words: 3,
      top: [
        { word: "b", count: 2 },
        { word: "a", count: 1 },
      ],
    },
  });

  const script = await mcpbin([
    "call",
    "convert_units",
    '{"value":100,"from":"C","to":"F"}',
    "examples/toolkit/server.ts",
  ]);
  expect(script).toEqual({ code: 0, stdout: "100 C = 212 F\n", stderr: "" });
});

test("call: an isError result is printed and exits 1; bad arguments are an isError result too", async () => {
  const r = await mcpbin(["call", "divide", '{"a":1,"b":0}', "--config", PROJECT]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("division by zero\n");
  expect(r.stderr).toEndWith("mcpbin: tool divide returned an error result (isError)\n");
  const bad = await mcpbin(["call", "add", '{"a":"x"}', "--config", PROJECT, "--json"]);
  expect(bad.code).toBe(1);
  expect(JSON.parse(bad.stdout).content[0].text).toStartWith("Invalid arguments for tool add:\na: ");
});

test("CLI errors are one line on stderr with a nonzero exit", async () => {
  expect(oneLineError(await mcpbin(["call", "nope", "{}", "--config", PROJECT]))).toBe(
    'mcpbin: call: no tool named "nope"; tools: snake_case, title_case, word_count, add, divide',
  );
  expect(oneLineError(await mcpbin(["call", "add", "{a:1}", "--config", PROJECT]))).toStartWith(
    "mcpbin: call: the arguments are not valid JSON",
  );
  expect(oneLineError(await mcpbin(["call", "add", "[1]", "--config", PROJECT]))).toBe(
    `mcpbin: call: the arguments must be a JSON object, e.g. '{"x": 1}'`,
  );
  expect(oneLineError(await mcpbin(["call"]))).toStartWith("mcpbin: call needs a tool name");
  expect(oneLineError(await mcpbin(["list", "--bogus"]))).toBe(
    "mcpbin: list: unknown option --bogus (list takes --config, --json); see mcpbin list --help",
  );
  expect(oneLineError(await mcpbin(["frobnicate"]))).toBe('mcpbin: unknown command "frobnicate"; see mcpbin --help');
  expect(oneLineError(await mcpbin(["list", "a.ts", "--config", PROJECT]))).toBe(
    "mcpbin: list: give --config FILE or an entry script, not both",
  );
  const empty = writeProject({});
  expect(oneLineError(await mcpbin(["list"], empty))).toStartWith("mcpbin: list: no mcpbin.config.ts in ");
  expect(oneLineError(await mcpbin(["build"], empty))).toContain("(or create a project with: mcpbin init)");
  // The compiler replaces its output file: a device or directory is refused before it runs.
  expect(oneLineError(await mcpbin(["build", "examples/toolkit/server.ts", "--outfile", "/dev/null"]))).toBe(
    "mcpbin: --outfile /dev/null exists and is not a regular file; choose a file path",
  );
  // An unwritable folder (sysfs refuses even root) is named with the permission it lacks, before the compiler runs.
  expect(oneLineError(await mcpbin(["build", "examples/toolkit/server.ts", "--outfile", "/sys/mcpbin-out"]))).toBe(
    "mcpbin: --outfile /sys/mcpbin-out: cannot write in the directory /sys (EACCES): this user needs write and search " +
      "permission there (e.g. chmod u+wx /sys), or choose an --outfile in a directory you can write to",
  );
  const broken = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools"] }),
    "tools/x.ts": `import "./missing-helper.ts";`,
  });
  expect(oneLineError(await mcpbin(["build"], broken))).toStartWith("mcpbin: tools/x.ts failed to load: ");
  const dup = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["a", "b"] }),
    "a/t.ts": toolsModule("same"),
    "b/t.ts": toolsModule("same"),
  });
  expect(oneLineError(await mcpbin(["list"], dup))).toStartWith(
    'mcpbin: two tools are named "same": a/t.ts and b/t.ts',
  );
  const badConfig = writeProject({ "mcpbin.config.ts": configSource({ tools: ["t"], timeoutMs: -1 }) });
  expect(oneLineError(await mcpbin(["dev"], badConfig))).toBe(
    'mcpbin: mcpbin.config.ts: "timeoutMs" must be a number of milliseconds from 0 (no limit) to 2147483647; got -1',
  );
});

test("list --json and call --json stay parseable when the script prints (top level, timers, inside run); the tool sees no CLI arguments", async () => {
  const dir = writeProject({
    "chatty.ts": [
      `import { serve, tool } from "mcpbin";`,
      `console.log("banner on stdout");`,
      `setInterval(() => process.stdout.write("tick\\n"), 2);`,
      `await serve({ name: "chatty", version: "1.0.0", tools: [tool({ name: "argv", description: "its arguments", run: () => { console.log("inside run"); return process.argv.slice(2).join(",") || "(none)"; } })] });`,
      ``,
    ].join("\n"),
  });
  const listed = await mcpbin(["list", "chatty.ts", "--json"], dir);
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout).tools.map((t: { name: string }) => t.name)).toEqual(["argv"]);
  expect(listed.stderr).toContain("banner on stdout");
  const called = await mcpbin(["call", "argv", "{}", "chatty.ts", "--json"], dir);
  expect(called.code).toBe(0);
  expect(JSON.parse(called.stdout)).toEqual({ content: [{ type: "text", text: "(none)" }] });
  expect(called.stderr).toContain("inside run");
});

test("call: the JSON arguments are optional before an entry script (call <tool> server.ts runs the tool with {})", async () => {
  const r = await mcpbin(["call", "slugify", "examples/toolkit/server.ts", "--json"]);
  // The script was loaded and the tool called with {}: its missing argument is an isError result, not a JSON parse error.
  expect(r.code).toBe(1);
  expect(JSON.parse(r.stdout).content[0].text).toStartWith("Invalid arguments for tool slugify:");
});
