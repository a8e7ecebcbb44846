// mount(): a server inside a server, through the real pipeline: tools, resources (URIs rewritten reversibly),
// templates, prompts under the prefix; both middleware chains (the child's innermost); live changes; unmount.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { connect, createServer, prompt, resource, resourceTemplate, tool, type Middleware } from "../../src/index.ts";

function servers() {
  const order: string[] = [];
  const trace =
    (who: string): Middleware =>
    async (req, next) => {
      if (req.method === "tools/call") order.push(`${who}>`);
      const r = await next(req);
      if (req.method === "tools/call") order.push(`<${who}`);
      return r;
    };
  const charge = tool({
    name: "charge",
    description: "Charges an amount",
    input: v.object({ cents: v.number() }),
    run: ({ cents }) => `charged ${cents}`,
  });
  const invoice = resource({ uri: "billing://invoices/latest", name: "latest", text: "invoice #7" });
  const byId = resourceTemplate({
    uriTemplate: "billing://invoices/{id}",
    name: "invoice",
    read: ({ id }) => `invoice #${id}`,
  });
  const remind = prompt({
    name: "remind",
    description: "A reminder",
    arguments: v.object({ who: v.string() }),
    get: ({ who }) => `Remind ${who} to pay`,
  });
  const billing = createServer({
    name: "billing",
    version: "1.0.0",
    tools: [charge],
    resources: [invoice, byId],
    prompts: [remind],
    middleware: [trace("child")],
  });
  const ping = tool({ name: "ping", description: "Pong", run: () => "pong" });
  const hub = createServer({ name: "hub", version: "1.0.0", tools: [ping], middleware: [trace("parent")] });
  return { hub, billing, order };
}

test("a mounted server's tools, resources, templates and prompts are served under its prefix", async () => {
  const { hub, billing, order } = servers();
  const m = await hub.mount(billing, { prefix: "billing" });
  expect(m.tools).toEqual(["billing__charge"]);
  const c = await connect(hub);
  try {
    expect((await c.listTools()).map((t) => t.name).sort()).toEqual(["billing__charge", "ping"]);
    const r = await c.callTool("billing__charge", { cents: 250 });
    expect((r.content[0] as any).text).toBe("charged 250");
    expect(order).toEqual(["parent>", "child>", "<child", "<parent"]);
    const bad = await c.callTool("billing__charge", { cents: "x" });
    expect(bad.isError).toBe(true);

    const listed = await c.listResources();
    const latest = listed.find((x: any) => x.name === "latest") as any;
    expect(latest.uri).not.toBe("billing://invoices/latest"); // rewritten under the prefix, reversibly
    const read = await c.readResource(latest.uri);
    expect((read.contents as any[])[0].text).toBe("invoice #7");
    const templates = await c.listResourceTemplates();
    const t = templates[0] as any;
    const viaTemplate = await c.readResource(t.uriTemplate.replace("{id}", "42"));
    expect((viaTemplate.contents as any[])[0].text).toBe("invoice #42");

    const prompts = await c.listPrompts();
    expect(prompts.map((p: any) => p.name)).toEqual(["billing__remind"]);
    const got = await c.getPrompt("billing__remind", { who: "Ada" });
    expect(JSON.stringify(got.messages)).toContain("Remind Ada to pay");
  } finally {
    await c.close();
  }
});

test("live: a tool added to the mounted server reaches the parent's clients; unmount takes everything away", async () => {
  const { hub, billing } = servers();
  const m = await hub.mount(billing, { prefix: "billing" });
  const c = await connect(hub, { era: "legacy" } as never);
  try {
    let changed = 0;
    c.onToolsChanged(() => changed++);
    billing.addTool(tool({ name: "refund", description: "Refunds", run: () => "refunded" }));
    for (let i = 0; i < 100 && !(await c.listTools()).some((t) => t.name === "billing__refund"); i++)
      await Bun.sleep(10);
    expect((await c.listTools()).map((t) => t.name)).toContain("billing__refund");
    expect(changed).toBeGreaterThan(0);
    await m.unmount();
    expect((await c.listTools()).map((t) => t.name)).toEqual(["ping"]);
    expect(await c.listResources()).toEqual([]);
    await expect(c.callTool("billing__charge", { cents: 1 })).rejects.toMatchObject({ rpc: { code: -32602 } });
  } finally {
    await c.close();
  }
});

test("mistakes fail with what to change", async () => {
  const { hub, billing } = servers();
  await expect(hub.mount(billing, { prefix: "no spaces" })).rejects.toThrow(
    /"prefix" must be 1 to 32 letters, digits or hyphens/,
  );
  await expect(hub.mount(billing, { prefix: "b", prefx: 1 } as never)).rejects.toThrow(/unknown option "prefx"/);
  await expect(hub.mount({} as never, { prefix: "b" })).rejects.toThrow(/must be made by createServer\(\)/);
  await expect(hub.mount(hub, { prefix: "b" })).rejects.toThrow(/cannot mount itself/);
  await hub.mount(billing, { prefix: "b" });
  await expect(hub.mount(billing, { prefix: "b" })).rejects.toThrow(/already mounted under "b"/);
});
