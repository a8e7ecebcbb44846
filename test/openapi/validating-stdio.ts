/**
 * @module An SDK v1 stdio client whose every incoming response is checked against the official schema
 * of the version the server negotiated (test/helpers/schema.ts).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { assertValidResponse } from "../helpers/schema.ts";

/** Connects an SDK v1 client to `command`; `checked.responses` counts the responses validated. */
export async function validatingStdioClient(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ client: Client; checked: { responses: number }; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const methods = new Map<unknown, string>();
  const checked = { responses: 0 };
  let version = "2025-11-25";
  const send = transport.send.bind(transport);
  transport.send = async (m: JSONRPCMessage) => {
    if ("method" in m && "id" in m) methods.set(m.id, m.method);
    return send(m);
  };
  const client = new Client({ name: "openapi-e2e", version: "1.0.0" });
  // The client installs its handler at connect; wrap it then to see every message first.
  const start = transport.start.bind(transport);
  transport.start = async () => {
    const handler = transport.onmessage!;
    transport.onmessage = (m) => {
      if ("id" in m && ("result" in m || "error" in m)) {
        const method = methods.get(m.id) ?? "?";
        if (method === "initialize" && "result" in m)
          version = (m.result as { protocolVersion: string }).protocolVersion;
        assertValidResponse(version, method, m as unknown as Record<string, unknown>);
        checked.responses++;
      }
      handler(m);
    };
    return start();
  };
  await client.connect(transport);
  return { client, checked, stderr: () => stderr };
}
