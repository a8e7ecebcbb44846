// The command line of a compiled executable: --stdio forces stdio wherever it stands among the flags,
// and an unknown option is one line on stderr with exit code 2 (MCP clients pass only configured args).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { HttpOptionsError, transportFromArgs } from "../../src/transport/http-options.ts";
import { BUN, compileFixture, initLine, ROOT } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";

// configured-server.ts has serve({ http: { port: 0, … } }): without flags it serves HTTP, so stdio
// can only come from --stdio.
let bin: string;
beforeAll(async () => {
  bin = await compileFixture("test/http/configured-server.ts", "cmdline-configured");
}, 120_000);
afterAll(() => bin && rmSync(bin, { force: true }));

/** Runs the command with one initialize line on stdin (then EOF) and says what it served. */
async function launch(
  cmd: string[],
): Promise<{ served: "stdio" | "http" | "exited"; code: number | null; stdout: string; stderr: string }> {
  const p = Bun.spawn(cmd, {
    stdin: new Blob([initLine("2025-06-18") + "\n"]),
    stdout: "pipe",
    stderr: "pipe",
    cwd: ROOT,
    env: { ...process.env, MCPBIN_HTTP_TOKEN: "" },
  });
  let stderr = "";
  const listening = (async () => {
    const dec = new TextDecoder();
    for await (const c of p.stderr) {
      stderr += dec.decode(c, { stream: true });
      if (stderr.includes("MCP over HTTP at")) return "http" as const;
    }
    return "exited" as const;
  })();
  const stdoutText = new Response(p.stdout).text();
  const first = await Promise.race([
    listening,
    p.exited.then(() => "exited" as const),
    Bun.sleep(20_000).then(() => "timeout" as const),
  ]);
  if (first !== "exited") p.kill("SIGKILL");
  const code = await p.exited;
  await listening;
  const stdout = await stdoutText;
  return {
    served: first === "http" ? "http" : stdout.trim() !== "" ? "stdio" : "exited",
    code: first === "exited" ? code : null,
    stdout,
    stderr,
  };
}

test("--stdio forces stdio whatever the order of --stdio and --http (compiled executable)", async () => {
  const orders = [
    ["--stdio", "--http", "127.0.0.1:0"],
    ["--http", "127.0.0.1:0", "--stdio"],
    ["--stdio", "--http=127.0.0.1:0"],
    ["--http=127.0.0.1:0", "--stdio"],
    ["--stdio"],
  ];
  for (const args of orders) {
    const r = await launch([bin, ...args]);
    expect({ args, served: r.served, code: r.code }).toEqual({ args, served: "stdio", code: 0 });
    const msg = JSON.parse(r.stdout.trim());
    assertValidResponse("2025-06-18", "initialize", msg);
    expect(msg.result.serverInfo.name).toBe("configured");
  }
  // Without --stdio the same executable serves HTTP (from its config, or from --http).
  for (const args of [[], ["--http", "127.0.0.1:0"]]) {
    const r = await launch([bin, ...args]);
    expect({ args, served: r.served, stdout: r.stdout }).toEqual({ args, served: "http", stdout: "" });
  }
}, 60_000);

test("an unknown option given to a compiled executable is one line on stderr and exit code 2, nothing on stdout", async () => {
  for (const args of [
    ["--bogus"],
    ["-v"],
    ["--stdio=yes"],
    ["--http", "127.0.0.1:0", "--verbose"],
    ["--stdio", "--port", "80"],
  ]) {
    const r = await launch([bin, ...args]);
    const lines = r.stderr.trim().split("\n");
    expect({ args, code: r.code, stdout: r.stdout, lines: lines.length }).toEqual({
      args,
      code: 2,
      stdout: "",
      lines: 1,
    });
    expect(lines[0]).toStartWith(`cmdline-configured: unknown option `);
    expect(lines[0]).toContain(args.find((a) => a.startsWith("-") && !["--stdio", "--http"].includes(a))!);
    expect(lines[0]).toContain("--http [host:]port");
  }
  // A malformed --http value is the same kind of mistake: one line, exit 2.
  const bad = await launch([bin, "--stdio", "--http", "abc"]);
  expect({ code: bad.code, stderr: bad.stderr.trim() }).toEqual({
    code: 2,
    stderr: `cmdline-configured: --http: expected [host:]port (e.g. 8080 or 0.0.0.0:8080), got "abc"`,
  });
}, 60_000);

test("arguments after -- and positional arguments are left to the server's own code (compiled executable)", async () => {
  for (const args of [
    ["--stdio", "--", "--author-flag"],
    ["--stdio", "some/dir"],
  ]) {
    const r = await launch([bin, ...args]);
    expect({ args, served: r.served, code: r.code }).toEqual({ args, served: "stdio", code: 0 });
    assertValidResponse("2025-06-18", "initialize", JSON.parse(r.stdout.trim()));
  }
}, 60_000);

test("a script run from source leaves unknown options to its author, and --stdio still wins in any order", async () => {
  const r = await launch([
    BUN,
    `${ROOT}/test/http/configured-server.ts`,
    "--stdio",
    "--author-flag",
    "--http",
    "127.0.0.1:0",
  ]);
  expect({ served: r.served, code: r.code }).toEqual({ served: "stdio", code: 0 });
  assertValidResponse("2025-06-18", "initialize", JSON.parse(r.stdout.trim()));
}, 30_000);

test("mcpbin dev <script> --stdio --http … serves stdio too (the flags reach the script in either order)", async () => {
  for (const flags of [
    ["--stdio", "--http", "127.0.0.1:0"],
    ["--http", "127.0.0.1:0", "--stdio"],
  ]) {
    const r = await launch([BUN, `${ROOT}/bin/mcpbin.ts`, "dev", "test/http/configured-server.ts", ...flags]);
    expect({ flags, served: r.served, code: r.code }).toEqual({ flags, served: "stdio", code: 0 });
    assertValidResponse("2025-06-18", "initialize", JSON.parse(r.stdout.trim()));
  }
}, 30_000);

test("transportFromArgs: the order of --stdio and --http does not matter; every --http value is still checked", () => {
  expect(transportFromArgs(["--stdio", "--http", "8080"])).toBe("stdio");
  expect(transportFromArgs(["--http", "8080", "--stdio"])).toBe("stdio");
  expect(transportFromArgs(["--http", "0.0.0.0:1"])).toEqual({ host: "0.0.0.0", port: 1 });
  expect(transportFromArgs(["--", "--stdio"])).toBeUndefined();
  expect(() => transportFromArgs(["--stdio", "--http", "x"])).toThrow(HttpOptionsError);
  expect(transportFromArgs(["--mine", "--stdio"])).toBe("stdio");
  expect(() => transportFromArgs(["--mine", "--stdio"], true)).toThrow('unknown option "--mine"');
});
