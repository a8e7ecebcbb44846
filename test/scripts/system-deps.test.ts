/** @module scripts/system-deps.sh: a package dpkg (the real one) still lists whose binary is gone is reinstalled, and the script says so; apt-get is a recording stand-in so the shared machine is left as it is. */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers/proc.ts";

const dir = mkdtempSync(join(tmpdir(), "mcpbin-sysdeps-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dpkgLists = (pkg: string) =>
  Bun.spawnSync(["dpkg-query", "-W", "-f=${Status}", pkg]).stdout.toString() === "install ok installed";

/** Runs the script with the given needs and apt-get recording its arguments, one call a line. */
function run(needs: string) {
  const log = join(dir, "apt.log");
  writeFileSync(log, "");
  writeFileSync(join(dir, "apt-get"), `#!/bin/sh\necho "$*" >> ${log}\n`);
  chmodSync(join(dir, "apt-get"), 0o755);
  const r = Bun.spawnSync(["bash", join(ROOT, "scripts/system-deps.sh")], {
    env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, MCPBIN_SYSTEM_DEPS: needs },
    stderr: "pipe",
  });
  return { code: r.exitCode, stderr: r.stderr.toString(), apt: readFileSync(log, "utf8") };
}

test.skipIf(!dpkgLists("redis-server") || process.getuid?.() !== 0)(
  "a package dpkg lists whose binary is gone is reinstalled, and the script says so (skipped unless root with redis-server)",
  () => {
    const r = run("/nonexistent/redis-server:redis-server");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "dpkg lists redis-server as installed but /nonexistent/redis-server is gone: reinstalling",
    );
    expect(r.apt).toBe("update -qq\ninstall -y -qq --no-install-recommends --reinstall redis-server\n");
  },
);

test.skipIf(process.getuid?.() !== 0)(
  "a package dpkg does not list is installed plainly; nothing missing runs nothing",
  () => {
    const r = run("/nonexistent/x:mcpbin-no-such-package /bin/sh:dash");
    expect(r.apt).toBe("update -qq\ninstall -y -qq --no-install-recommends mcpbin-no-such-package\n");
    expect(run("/bin/sh:dash")).toEqual({ code: 0, stderr: "", apt: "" });
  },
);
