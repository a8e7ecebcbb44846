// A dead upstream detected at the write, not only at its exit: a request whose line cannot be written (EPIPE,
// the process gone) fails at once as "closed" and marked unsent, so the gateway may retry it on a restarted
// process whatever the tool (src/client/gateway.ts). On main it failed as the upstream's own -32603 "EPIPE".
import { expect, test } from "bun:test";
import { connect, createServer, tool, type ClientTransport } from "../../src/index.ts";
import { inMemoryTransport } from "../../src/client/in-memory.ts";
import { OutboundError } from "../../src/server/outbound.ts";

test("a call whose line cannot be written fails at once, as unsent: the server never got it", async () => {
  const server = createServer({
    name: "s",
    version: "1",
    tools: [tool({ name: "echo", description: "echoes", run: () => "hi" })],
  });
  const inner = inMemoryTransport(server);
  let broken = false;
  const t: ClientTransport = {
    label: "up",
    start: (sink) => inner.start(sink),
    send: (line) =>
      broken && line.includes('"tools/call"')
        ? Promise.reject(new Error("EPIPE: broken pipe, write"))
        : inner.send(line),
    close: () => inner.close(),
  };
  const client = await connect(t, { era: "legacy" });
  expect((await client.callTool("echo")).content).toEqual([{ type: "text", text: "hi" }]);
  broken = true;
  const t0 = performance.now();
  const e = (await client.callTool("echo").catch((x: unknown) => x)) as OutboundError;
  expect(performance.now() - t0).toBeLessThan(1000);
  expect(e).toBeInstanceOf(OutboundError);
  expect(e.code).toBe("closed");
  expect(e.unsent).toBe(true);
  expect(e.message).toContain("could not be sent");
  await client.close();
});
