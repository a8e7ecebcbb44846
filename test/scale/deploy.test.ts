// The deployment files of deploy/ (docs/deploy.md): the Containerfile is linted (non-root USER, HEALTHCHECK on
// /healthz, EXPOSE, ENTRYPOINT of the copied executable) and its HEALTHCHECK command is run against a real
// server, serving (0) and draining after SIGTERM (not 0); the Kubernetes manifest and the compose file are
// parsed and checked; the HAProxy configuration passes `haproxy -c`. The image itself is built and run by
// test/scale/image.test.ts where a Docker daemon answers.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseAllDocuments, parse } from "yaml";
import { ROOT } from "../helpers/proc.ts";
import { HttpProcess, META, modernHeaders, post } from "../http/helpers.ts";

const DEPLOY = resolve(ROOT, "deploy");

/** The instructions of a Containerfile: continuation lines joined, comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map((l) => {
      const m = /^(\S+)\s+(.*)$/.exec(l)!;
      return { op: m[1]!.toUpperCase(), args: m[2]! };
    });
}

test("the Containerfile: a non-root user, EXPOSE 8080, a HEALTHCHECK on /healthz, SIGTERM, the copied executable as entry point", () => {
  const ins = instructions(readFileSync(resolve(DEPLOY, "Containerfile"), "utf8"));
  expect(ins.some((i) => i.op === "ENV" && i.args === "MCPBIN_HTTP_DRAIN_MS=5000")).toBe(true); // 5 s of drain
  const one = (op: string) => ins.filter((i) => i.op === op);
  expect(one("FROM").length).toBe(1);
  const user = one("USER").at(-1)!.args;
  expect(user.split(":")[0]).not.toMatch(/^(0|root)$/);
  expect(one("EXPOSE").map((i) => i.args)).toEqual(["8080"]);
  expect(one("STOPSIGNAL")[0]!.args).toBe("SIGTERM");
  expect(one("HEALTHCHECK")[0]!.args).toContain("/healthz");
  const copied = one("COPY")[0]!.args.split(/\s+/).at(-1)!;
  expect(JSON.parse(one("ENTRYPOINT")[0]!.args)).toEqual([copied]);
  expect(JSON.parse(one("CMD")[0]!.args)).toEqual(["--http", "0.0.0.0:8080"]);
  // The user is created before it is used, and nothing runs as root after USER.
  expect(ins.findIndex((i) => i.op === "RUN" && /useradd .*--uid 10001/.test(i.args))).toBeLessThan(
    ins.findIndex((i) => i.op === "USER"),
  );
  expect(ins.slice(ins.findIndex((i) => i.op === "USER")).some((i) => i.op === "RUN")).toBe(false);
});

test("the HEALTHCHECK command: 0 while the server serves, not 0 while it drains after SIGTERM", async () => {
  const hc = instructions(readFileSync(resolve(DEPLOY, "Containerfile"), "utf8")).find((i) => i.op === "HEALTHCHECK")!;
  const cmd = JSON.parse(hc.args.slice(hc.args.indexOf("CMD") + 3).trim()) as string[];
  const s = await HttpProcess.source("test/http/configured-server.ts", { args: [] });
  try {
    const port = new URL(s.url).port;
    const run = () => Bun.spawnSync(cmd.map((a) => a.replace("/127.0.0.1/8080", `/127.0.0.1/${port}`))).exitCode;
    expect(run()).toBe(0);
    // A call in flight keeps the process draining for a while after SIGTERM.
    const call = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "announced", arguments: { ms: 1000 }, _meta: META },
    };
    const inflight = post(s.url, call, modernHeaders("tools/call", "announced"));
    await s.waitForStderr("announced: sleeping 1000");
    s.kill("SIGTERM");
    await Bun.sleep(100);
    expect(run()).not.toBe(0);
    expect((await inflight).json.result.content[0].text).toBe("slept 1000");
  } finally {
    s.kill();
  }
}, 30_000);

test("the Kubernetes manifest: readiness on /healthz, the token and state key from a Secret, Redis, a Service, non-root", () => {
  const docs = parseAllDocuments(readFileSync(resolve(DEPLOY, "kubernetes.yaml"), "utf8")).map((d) => d.toJS());
  const byKind = (kind: string) => docs.filter((d) => d.kind === kind);
  const [app, redis] = byKind("Deployment");
  const c = app.spec.template.spec.containers[0];
  expect(c.readinessProbe.httpGet).toEqual({ path: "/healthz", port: c.ports[0].containerPort });
  const env = Object.fromEntries(c.env.map((e: any) => [e.name, e]));
  expect(env.MCPBIN_HTTP_TOKEN.valueFrom.secretKeyRef.name).toBe(env.MCPBIN_STATE_KEY.valueFrom.secretKeyRef.name);
  expect(app.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  // The kill comes after the drain (the pod keeps serving while its endpoint is removed) and the grace for calls.
  const drainMs = Number(env.MCPBIN_HTTP_DRAIN_MS.value);
  expect(drainMs).toBe(5000);
  expect(app.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(drainMs + 5000);
  // A read-only root, and an emptyDir at the working directory, where the file task store and sessions write.
  expect(c.securityContext.readOnlyRootFilesystem).toBe(true);
  const tmp = c.volumeMounts.find((m: any) => m.mountPath === "/tmp");
  expect(app.spec.template.spec.volumes.find((v: any) => v.name === tmp.name).emptyDir).toBeDefined();
  const services = byKind("Service");
  const redisService = services.find((s) => s.spec.selector.app === redis.metadata.labels.app)!;
  expect(env.MCPBIN_REDIS_URL.value).toBe(`redis://${redisService.metadata.name}:${redisService.spec.ports[0].port}`);
  expect(
    services.some(
      (s) => s.spec.selector.app === app.metadata.labels.app && s.spec.ports[0].targetPort === c.ports[0].containerPort,
    ),
  ).toBe(true);
});

test("the compose file: Redis, two replicas sharing it, HAProxy in front; its haproxy.cfg passes haproxy -c", () => {
  const compose = parse(readFileSync(resolve(DEPLOY, "compose.yaml"), "utf8"));
  const servers = Object.entries<any>(compose.services).filter(([, s]) => s.build);
  expect(servers.length).toBe(2);
  for (const [, s] of servers) expect(s.environment.MCPBIN_REDIS_URL).toBe("redis://redis:6379");
  expect(compose.services.redis).toBeDefined();
  const cfg = readFileSync(resolve(DEPLOY, "haproxy.cfg"), "utf8");
  for (const [name] of servers) expect(cfg).toContain(`server ${name} ${name}:8080 check`);
  // The build line targets the image's platform, and the token it sets can be seen.
  const header = readFileSync(resolve(DEPLOY, "compose.yaml"), "utf8");
  expect(header).toMatch(/mcpbin build \S+ --outfile dist\/server --target bun-linux-x64/);
  expect(header).toContain('echo "$MCPBIN_HTTP_TOKEN"');
  // A long call (http.requestTimeoutMs, 130 s) is not cut by HAProxy; late replicas are resolved (init-addr none).
  const seconds = (key: string) => Number(new RegExp(`^\\s*timeout ${key} (\\d+)s$`, "m").exec(cfg)![1]);
  expect(seconds("server")).toBeGreaterThanOrEqual(130);
  expect(seconds("client")).toBeGreaterThanOrEqual(130);
  const resolver = /^resolvers (\S+)$/m.exec(cfg)![1];
  expect(cfg).toMatch(new RegExp(`default-server init-addr [^\\n]*none resolvers ${resolver}`));
  const check = Bun.spawnSync(["/usr/sbin/haproxy", "-c", "-f", resolve(DEPLOY, "haproxy.cfg")]);
  expect(check.stdout.toString() + check.stderr.toString()).toContain("Configuration file is valid");
});
