// The mcpbin client program the official conformance suite drives in its client scenarios:
//   conformance client --command "bun examples/conformance/client.ts" --scenario <id>
// The suite starts a server for the scenario, then runs this program with the server's URL as its last argument and
// the scenario in MCP_CONFORMANCE_SCENARIO (its context, when it has one, in MCP_CONFORMANCE_CONTEXT as JSON).
// Each scenario does what a host would: one entry per scenario in SCENARIOS; any other connects, lists tools and closes.
import { connect, listSkills, type McpClient } from "mcpbin";

const url = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, unknown>;

/** What the client does in one scenario, once connected. */
type Scenario = (client: McpClient, context: Record<string, unknown>) => Promise<void>;

const SCENARIOS: Record<string, Scenario> = {
  // A host lists skills to build its registry and reads no skill file before the skill is loaded.
  "sep-2640-client-no-prefetch": async (client) => {
    const skills = await listSkills(client);
    console.error(`listed ${skills.length} skill(s): ${skills.map((s) => s.frontmatter.name).join(", ")}`);
  },
};

const client = await connect({ url });
try {
  await (SCENARIOS[scenario] ?? ((c) => c.listTools().then(() => {})))(client, context);
} finally {
  await client.close();
}
