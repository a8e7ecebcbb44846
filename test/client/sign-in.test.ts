// A remote upstream that refuses the proxy's credentials: `mcpbin proxy --url` says that sign-in failed (never
// "ignored a line that is not JSON", the 401 page taken for a message), and a call of a tool it would have
// served gets that reason, not a bare "Unknown tool". Real server process with a bearer token, real proxy.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { BUN, ROOT, McpProcess } from "../helpers/proc.ts";
import { HttpProcess } from "../http/helpers.ts";

setDefaultTimeout(60_000);
let up: HttpProcess;
beforeAll(async () => {
  up = await HttpProcess.source("test/fixtures/servers/fixture.ts", { env: { MCPBIN_HTTP_TOKEN: "the-right-token" } });
}, 60_000);
afterAll(() => up?.kill());

test("a wrong token: the proxy says sign-in failed, and a call of the upstream's tools is answered with that reason", async () => {
  const p = new McpProcess([
    BUN,
    resolve(ROOT, "bin/mcpbin.ts"),
    "proxy",
    "--url",
    up.url,
    "--header",
    "Authorization: Bearer a-wrong-token",
  ]);
  try {
    await p.waitForStderr(/sign-in failed/, 20_000);
    await p.handshake("2025-06-18");
    const r = await p.request("tools/call", { name: "echo", arguments: { text: "x" } }, 2);
    const text: string = r.error?.message ?? JSON.stringify(r.result);
    expect(text).toContain("Unknown tool: echo");
    expect(text).toContain('upstream "remote" is unavailable: ');
    expect(text).toContain("sign-in failed: the server answered HTTP 401");
    expect(p.stderr).not.toContain("not JSON");
    expect(p.stderr).not.toContain("a-wrong-token");
  } finally {
    p.kill();
  }
});
