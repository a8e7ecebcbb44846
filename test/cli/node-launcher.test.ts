// The `mcpbin` command npm installs is bin/mcpbin.mjs: run by Node with no bun on PATH, it finds the pinned
// Bun (the `bun` package, resolved the way Node resolves packages) and runs the CLI on it.
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { ROOT } from "../helpers/proc.ts";

setDefaultTimeout(60_000);
const node = Bun.which("node");

test.skipIf(!node)(
  "node bin/mcpbin.mjs with no bun on PATH: --version, a usage error's exit code, and package.json's bin points at it",
  async () => {
    const env = { ...process.env, PATH: "/usr/bin:/bin" };
    expect(Bun.which("bun", { PATH: env.PATH })).toBeNull();
    const run = async (args: string[]) => {
      const p = Bun.spawn([node!, join(ROOT, "bin/mcpbin.mjs"), ...args], { env, stdout: "pipe", stderr: "pipe" });
      const [code, stdout, stderr] = await Promise.all([
        p.exited,
        new Response(p.stdout).text(),
        new Response(p.stderr).text(),
      ]);
      return { code, stdout, stderr };
    };
    expect(await run(["--version"])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
    expect(await run(["frobnicate"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'mcpbin: unknown command "frobnicate"; see mcpbin --help\n',
    });
    expect(pkg.bin.mcpbin).toBe("./bin/mcpbin.mjs");
    expect(Object.keys(pkg.dependencies)).toContain("bun");
  },
);
