// The main job, end to end: compile the toolkit example into one executable and drive it with the official MCP SDK client.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const out = resolve(root, "dist/toolkit");
const build = Bun.spawnSync(
  [
    process.execPath,
    resolve(root, "bin/mcpbin.ts"),
    "build",
    resolve(root, "examples/toolkit/server.ts"),
    "--outfile",
    out,
  ],
  {
    stdout: "inherit",
    stderr: "inherit",
  },
);
if (build.exitCode !== 0) process.exit(build.exitCode ?? 1);

const client = new Client({ name: "mcpbin-demo", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: out, args: [] }));
const info = client.getServerVersion();
console.log(`\nConnected to ${info?.name} ${info?.version} at ${out}\n\nTools:`);
const { tools } = await client.listTools();
for (const t of tools) console.log(`  ${t.name.padEnd(14)} ${t.description}`);
const args = { value: 26.2, from: "mi", to: "km" };
const result = await client.callTool({ name: "convert_units", arguments: args });
console.log(`\ntools/call convert_units ${JSON.stringify(args)}:\n  ${JSON.stringify(result)}`);
await client.close();
