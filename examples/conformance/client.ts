// The mcpbin client program the official conformance suite drives in its client scenarios:
//   conformance client --command "bun examples/conformance/client.ts" --scenario <id>
// The suite starts a server for the scenario, then runs this program with the server's URL as its last argument and
// the scenario in MCP_CONFORMANCE_SCENARIO (its context, when it has one, in MCP_CONFORMANCE_CONTEXT as JSON).
// Each scenario does what a host would: one entry per scenario in SCENARIOS; any other connects, lists tools and closes.
// Every connection signs in with OAuth when the server answers 401 (the auth/* scenarios, scripts/conformance-client.sh):
// the suite's authorization server approves at once, so "the browser" is a fetch that follows the redirects.
import { connect, listSkills, memoryTokenStore, type McpClient } from "mcpbin";

const url = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, unknown>;
const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;

/** What the client does in one scenario, once connected. */
type Scenario = (client: McpClient, context: Record<string, unknown>) => Promise<void>;

const SCENARIOS: Record<string, Scenario> = {
  // A host lists skills to build its registry and reads no skill file before the skill is loaded.
  "sep-2640-client-no-prefetch": async (client) => {
    const skills = await listSkills(client);
    console.error(`listed ${skills.length} skill(s): ${skills.map((s) => s.frontmatter.name).join(", ")}`);
  },
  // 2026-07-28 x-mcp-header: a call whose annotated arguments the transport mirrors into Mcp-Param-* headers.
  "http-custom-headers": async (client) => {
    const names = (await client.listTools()).map((t) => t.name);
    if (names.includes("test_custom_headers")) {
      await client.callTool("test_custom_headers", {
        region: "us-west1",
        priority: 42,
        verbose: true,
        debug: true,
        empty_val: "",
        method_val: "GET",
        float_val: 3.14,
        non_ascii_val: "Hello, 世界",
        whitespace_val: " padded ",
        leading_space_val: " lead",
        trailing_space_val: "trail ",
        internal_space_val: "a b c",
        control_char_val: "a\u0001b",
        crlf_val: "line1\r\nline2",
        tab_val: "\tindented",
        query: "SELECT 1",
      });
    }
    if (names.includes("test_custom_headers_null"))
      await client.callTool("test_custom_headers_null", { region: "us-west1", priority: 1, verbose: null, query: "q" });
  },
  tools_call: async (client) => {
    await client.listTools();
    await client.callTool("add_numbers", { a: 5, b: 3 });
  },
  // A call whose SSE stream ends after an event id, without the response: the transport resumes it with a GET
  // and Last-Event-ID once the server's retry has passed.
  "sse-retry": async (client) => {
    for (const t of await client.listTools()) await client.callTool(t.name, {});
  },
  // SEP-1034: the host's user accepts the form as pre-populated, so the answer names no field; connect() completes
  // it with the requested schema's defaults (ClientOptions.elicitationDefaults).
  "elicitation-sep1034-client-defaults": async (client) => {
    for (const t of await client.listTools()) await client.callTool(t.name, {});
  },
  // 2026-07-28 multi round-trip: requestState echoed as it came, none sent when none came, a new id per retry, a
  // call made between the rounds carries neither, and a result without resultType is complete.
  "sep-2322-client-request-state": async (client) => {
    const confirm = async () => ({ action: "accept", content: { confirmed: true } });
    await client.callTool(
      "test_mrtr_echo_state",
      {},
      {
        // Another call while the first waits for its input: it must carry none of the first one's round.
        onRequest: async () => {
          await client.callTool("test_mrtr_unrelated", {});
          return confirm();
        },
      },
    );
    await client.callTool("test_mrtr_no_state", {}, { onRequest: confirm });
    await client.callTool("test_mrtr_no_result_type", {}, { onRequest: confirm });
  },
  // SEP-1613/2106: hand the focal tool's inputSchema, as listed, back to the echo tool.
  "json-schema-2020-12-preservation": async (client) => {
    const tools = await client.listTools();
    const focal = tools.find((t) => t.name !== "json_schema_echo");
    if (focal) await client.callTool("json_schema_echo", { schema: focal.inputSchema });
  },
  // Tools whose x-mcp-header breaks the rules are not listed (the transport leaves them out): call every tool listed.
  "http-invalid-tool-headers": async (client) => {
    for (const t of await client.listTools()) {
      const props = (t.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
      await client.callTool(t.name, Object.fromEntries(Object.keys(props).map((k) => [k, "x"])));
    }
  },
};

/** Follows the authorization URL to the redirect back to this client, as a browser would. */
async function authorize(u: URL): Promise<URL> {
  let next = u;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(next, { redirect: "manual" });
    const loc = res.headers.get("location");
    await res.body?.cancel().catch(() => {});
    if (!loc) throw new Error(`the authorization server answered ${res.status} without a redirect`);
    const to = new URL(loc, next);
    if (to.hostname === "127.0.0.1" && to.pathname === "/callback") return to;
    next = to;
  }
  throw new Error("too many redirects");
}

const str = (k: string) => (typeof context[k] === "string" ? (context[k] as string) : undefined);
const auth = {
  tokenStore: memoryTokenStore(),
  authorize,
  clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
  ...(str("client_id") ? { clientId: str("client_id") } : {}),
  ...(str("client_secret") ? { clientSecret: str("client_secret") } : {}),
  ...(str("private_key_pem")
    ? { clientPrivateKey: { pem: str("private_key_pem")!, alg: str("signing_algorithm") ?? "ES256" } }
    : {}),
  ...(scenario.startsWith("auth/client-credentials") ? { grant: "client_credentials" as const } : {}),
};
// The auth scenarios speak the revision they were started for.
const era =
  scenario.startsWith("auth/") && version
    ? { era: version === "2026-07-28" ? ("modern" as const) : ("legacy" as const) }
    : {};

/** The auth scenarios: list the tools and call the first (a step-up scenario answers that call with 403). */
const listAndCall: Scenario = async (c) => {
  const tools = await c.listTools();
  if (tools[0]) await c.callTool(tools[0].name, {}).catch(() => {});
};

/** A host's answers to the server's requests: it shows each form and its user accepts it as it is. */
const host = {
  capabilities: { elicitation: { form: {} } },
  onRequest: async (method: string) => {
    if (method === "elicitation/create") return { action: "accept" };
    throw new Error(`this host does not answer ${method}`);
  },
};

const client = await connect(
  { url, auth },
  { name: "conformance-client", ...era, ...(scenario.startsWith("elicitation-") ? host : {}) },
);
try {
  await (SCENARIOS[scenario] ?? (scenario.startsWith("auth/") ? listAndCall : (c) => c.listTools().then(() => {})))(
    client,
    context,
  );
} finally {
  await client.close();
}
