// The image of deploy/Containerfile, built and run where a Docker daemon answers (DOCKER_HOST, else the default
// socket): the executable test/scale builds is its payload; the container answers initialize through a published
// port, runs as 10001, reports healthy through its own HEALTHCHECK, and exits 0 on `docker stop` (SIGTERM drains).
// The base image (debian:bookworm-slim) must be in the daemon's store or pullable. Where no daemon answers, or no
// docker CLI builds with BuildKit (COPY --chmod needs it), or the base cannot be had, the test says why and stops;
// with MCPBIN_REQUIRE_DOCKER=1 (set by .ci/run once scripts/docker-here.sh has started a daemon) it fails instead.
// scripts/docker-here.sh starts a daemon (and makes the base image) on a machine that has none.
import { expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { ROOT } from "../helpers/proc.ts";
import { post } from "../http/helpers.ts";
import { scaleExecutable } from "./cluster.ts";

const BASE = "docker.io/library/debian:bookworm-slim";

/** Runs a command; its exit code and output. */
function run(cmd: string[], timeout = 120_000, env: Record<string, string> = {}) {
  const p = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe", timeout, env: { ...process.env, ...env } });
  return { code: p.exitCode, out: p.stdout.toString().trim(), err: p.stderr.toString().trim() };
}

/** Says why the image was not built: a failure where CI promised a daemon (MCPBIN_REQUIRE_DOCKER=1), else a note. */
function unavailable(why: string): void {
  if (process.env.MCPBIN_REQUIRE_DOCKER === "1")
    throw new Error(`image: ${why}, but MCPBIN_REQUIRE_DOCKER=1 says a daemon was started for this run`);
  console.error(`image: ${why}: the image was not built`);
}

/** Every docker CLI on PATH (and Debian's), once each. */
function dockerClis(): string[] {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/bin"];
  const found = dirs.map((d) => join(d, "docker")).filter((p) => existsSync(p));
  return [...new Map(found.map((p) => [realpathSync(p), p])).values()];
}

test("the image: built from deploy/Containerfile, it answers initialize, runs as 10001, is healthy, drains on stop", async () => {
  const clis = dockerClis().filter((d) => run([d, "info"], 15_000).code === 0);
  if (clis.length === 0) {
    return unavailable("no Docker daemon answers here (DOCKER_HOST or /var/run/docker.sock)");
  }
  const docker = clis[0]!;
  if (run([docker, "image", "inspect", BASE]).code !== 0 && run([docker, "pull", BASE], 120_000).code !== 0) {
    return unavailable(`${BASE} is neither in the daemon's store nor pullable here`);
  }
  const ctx = mkdtempSync(join(tmpdir(), "mcpbin-image-"));
  const tag = `mcpbin-image-test:${process.pid}`;
  let cid = "";
  try {
    copyFileSync(await scaleExecutable(), join(ctx, "server"));
    const file = resolve(ROOT, "deploy/Containerfile");
    const args = ["build", "-f", file, "--build-arg", "EXECUTABLE=server", "-t", tag, ctx];
    const builder = clis.find((d) => run([d, ...args], 300_000, { DOCKER_BUILDKIT: "1" }).code === 0);
    if (builder === undefined) {
      const why = run([docker, ...args], 300_000, { DOCKER_BUILDKIT: "1" })
        .err.split("\n")
        .slice(-3)
        .join(" ");
      return unavailable(`no docker CLI here builds with BuildKit (${why})`);
    }
    const started = run([builder, "run", "-d", "-p", "127.0.0.1::8080", tag]);
    expect(started.code).toBe(0);
    cid = started.out;
    const address = run([builder, "port", cid, "8080"]).out.split("\n")[0]!;
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "image", version: "1" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    let answer: Awaited<ReturnType<typeof post>> | undefined;
    for (const end = Date.now() + 20_000; Date.now() < end && answer?.status !== 200; await Bun.sleep(200))
      answer = await post(`http://${address}/mcp`, init, headers).catch(() => undefined);
    expect(answer?.json.result.serverInfo).toEqual({ name: "streams", version: "1.0.0" });
    expect(run([builder, "inspect", "--format", "{{.Config.User}}", cid]).out).toBe("10001:10001");
    let health = "";
    for (const end = Date.now() + 40_000; Date.now() < end && health !== "healthy"; await Bun.sleep(500))
      health = run([builder, "inspect", "--format", "{{.State.Health.Status}}", cid]).out;
    expect(health).toBe("healthy");
    expect(run([builder, "stop", "-t", "10", cid]).code).toBe(0);
    expect(run([builder, "inspect", "--format", "{{.State.ExitCode}}", cid]).out).toBe("0");
    console.error(`image: built with ${builder} and run: initialize answered, healthy, exit 0 after docker stop`);
  } finally {
    for (const d of clis.slice(0, 1)) {
      if (cid) run([d, "rm", "-f", cid]);
      run([d, "rmi", "-f", tag]);
    }
    rmSync(ctx, { recursive: true, force: true });
  }
}, 600_000);
