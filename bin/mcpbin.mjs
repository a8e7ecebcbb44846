#!/usr/bin/env node
// The mcpbin command as npm installs it: a Node launcher that runs bin/mcpbin.ts on the pinned Bun
// (the `bun` package's binary, found from here or the working directory the way Node resolves packages),
// so no `bun` is needed on PATH. Under Bun it runs the CLI in-process.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);

/** The Bun executable: the `bun` package's binary (from mcpbin's place, then the working directory), else `bun` on PATH. */
function findBun() {
  const require = createRequire(import.meta.url);
  for (const base of [here, process.cwd()]) {
    try {
      const exe = join(dirname(require.resolve("bun/package.json", { paths: [base] })), "bin", "bun.exe");
      if (existsSync(exe)) return exe;
    } catch {
      // not resolvable from there
    }
  }
  return "bun";
}

if (process.versions.bun) {
  const { main } = await import("../src/cli/main.ts");
  process.exitCode = await main(args);
} else {
  const bun = findBun();
  const child = spawn(bun, [join(here, "mcpbin.ts"), ...args], { stdio: "inherit" });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("error", (e) => {
    process.stderr.write(
      e.code === "ENOENT"
        ? "mcpbin: Bun was not found: install the pinned one beside mcpbin (npm install --save-dev bun@1.4.4; allow its install script) or put bun on PATH\n"
        : `mcpbin: cannot start Bun (${bun}): ${e.message}\n`,
    );
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 1)));
}
