// mcpbin dev --watch (issue 21): a test edits the script while the official SDK client stays connected;
// the new tool is listed without reconnecting, and a broken edit keeps the last good tools.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { BUN, ROOT } from "../helpers/proc.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";

setDefaultTimeout(60_000);
afterAll(removeProjects);

const script = (tools: string) => `import { serve, tool } from "mcpbin";
import { greet } from "./tools/greet.ts";
await serve({ name: "watched", version: "1.0.0", tools: [greet${tools}] });
`;
const greet = (word: string) =>
  `import { tool } from "mcpbin";\nexport const greet = tool({ name: "greet", description: "greets", run: () => "${word}" });\n`;

test("dev --watch: an added tool and an edited module reach the connected client (list_changed); a broken edit keeps the last good tools", async () => {
  const dir = writeProject({ "server.ts": script(""), "tools/greet.ts": greet("hello") });
  const transport = new StdioClientTransport({
    command: BUN,
    args: [resolve(ROOT, "bin/mcpbin.ts"), "dev", "server.ts", "--watch"],
    cwd: dir,
    stderr: "pipe",
  });
  let stderr = "";
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  transport.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
    for (const w of [...waiters]) if (w.re.test(stderr)) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
  });
  const line = (re: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (re.test(stderr)) return resolve();
      waiters.push({ re, resolve });
      setTimeout(() => reject(new Error(`no stderr line ${re}; stderr:\n${stderr}`)), 30_000).unref();
    });
  const seen = tap(transport as unknown as Transport);
  const client = new Client({ name: "editor", version: "1" });
  let changes = 0;
  let onChange: () => void = () => {};
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => (changes++, onChange()));
  const nextChange = () => new Promise<void>((resolve) => (onChange = resolve));
  await client.connect(transport);
  try {
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    await line(/watching /);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["greet"]);

    // A new tool in the script.
    let changed = nextChange();
    writeFileSync(join(dir, "server.ts"), script(`, tool({ name: "added", description: "new", run: () => "fresh" })`));
    await changed;
    await line(/reloaded server\.ts: \+added/);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["added", "greet"]);
    expect((await client.callTool({ name: "added", arguments: {} })).content).toEqual([
      { type: "text", text: "fresh" },
    ]);

    // An edited tool module is evaluated afresh.
    changed = nextChange();
    writeFileSync(join(dir, "tools/greet.ts"), greet("bonjour"));
    await changed;
    await line(/~greet/);
    expect((await client.callTool({ name: "greet", arguments: {} })).content).toEqual([
      { type: "text", text: "bonjour" },
    ]);

    // A module that fails to load: the error on stderr, the last good tools still served.
    const before = changes;
    writeFileSync(join(dir, "tools/greet.ts"), `export const greet = ;\n`);
    await line(/reload failed, serving the last good tools: /);
    expect(changes).toBe(before);
    expect((await client.callTool({ name: "greet", arguments: {} })).content).toEqual([
      { type: "text", text: "bonjour" },
    ]);
    expect(seen.length).toBeGreaterThan(5);
  } finally {
    await client.close();
  }
});
