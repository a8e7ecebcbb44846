/**
 * @module Validates what the server sends against the official MCP JSON Schema of the version in force.
 * Strict: every object definition of the schema that lists its `properties` and says nothing about
 * `additionalProperties` is closed, so a field the version does not define (a `title` sent to
 * 2025-03-26, block `_meta` sent to 2024-11-05, …) fails validation. Open parts (`_meta`, schemas,
 * `structuredContent`, `additionalProperties: {}`) stay open, as the schema says.
 */
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

type Validator = ((x: unknown) => boolean) & { errors?: unknown };
const cache = new Map<string, Validator>();

function validator(version: string, def: string, open = false): Validator {
  const key = `${version}#${def}${open ? "#open" : ""}`;
  let v = cache.get(key);
  if (v) return v;
  const official = require(`../fixtures/schema/${version}/schema.json`);
  const schema = open ? structuredClone(official) : closed(official);
  const modern = "$defs" in schema;
  const ajv = modern ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
  addFormats(ajv as never);
  ajv.addSchema(schema, "mcp");
  v = ajv.getSchema(`mcp#/${modern ? "$defs" : "definitions"}/${def}`) as Validator;
  if (!v) throw new Error(`no definition ${def} in ${version}`);
  cache.set(key, v);
  return v;
}

/** A copy of the schema with its top-level object definitions closed (see the module comment). */
function closed(schema: Record<string, any>): Record<string, any> {
  const copy = structuredClone(schema);
  for (const [name, def] of Object.entries(copy.$defs ?? copy.definitions) as [string, Record<string, unknown>][]) {
    // `_meta` objects (2026-07-28 *MetaObject) are open maps in the spec's TypeScript, though the JSON lists only reserved keys.
    if (name.endsWith("MetaObject")) continue;
    if (def.properties && def.additionalProperties === undefined && !def.allOf) def.additionalProperties = false;
  }
  return copy;
}

/** The schema definition a result of `method` must match in `version`. */
export function resultDef(version: string, method: string): string {
  switch (method) {
    case "initialize":
      return "InitializeResult";
    case "tools/list":
      return "ListToolsResult";
    case "tools/call":
      return "CallToolResult";
    case "server/discover":
      return "DiscoverResult";
    case "ping":
      return version === "2026-07-28" ? "Result" : "EmptyResult";
    case "resources/list":
      return "ListResourcesResult";
    case "resources/templates/list":
      return "ListResourceTemplatesResult";
    case "resources/read":
      return "ReadResourceResult";
    case "resources/subscribe":
    case "resources/unsubscribe":
    case "logging/setLevel":
      return "EmptyResult";
    case "prompts/list":
      return "ListPromptsResult";
    case "prompts/get":
      return "GetPromptResult";
    case "completion/complete":
      return "CompleteResult";
    case "subscriptions/listen":
      return "SubscriptionsListenResult";
    default:
      return "Result";
  }
}

/**
 * Asserts that one response message matches the official schema: the JSON-RPC envelope
 * (JSONRPCResponse / JSONRPCError) and, for results, the method's result definition. `open`: the schema as
 * published, extra properties allowed (for a field a version does not define but tolerates, e.g. tool
 * `_meta` sent to 2024-11-05 under the MCP Apps extension), instead of closed.
 * @throws Error listing the schema violations.
 */
export function assertValidResponse(
  version: string,
  method: string,
  msg: Record<string, unknown>,
  o: { open?: boolean } = {},
): void {
  const isErr = "error" in msg;
  const envDefs = isErr ? ["JSONRPCError", "JSONRPCErrorResponse"] : ["JSONRPCResponse", "JSONRPCResultResponse"];
  const schema = require(`../fixtures/schema/${version}/schema.json`);
  const defs = schema.$defs ?? schema.definitions;
  const envDef = envDefs.find((d) => d in defs)!;
  if (isErr && msg.id === null) {
    // An error whose request id could not be read carries id null (JSON-RPC 2.0 §5), which no MCP schema
    // expresses (before 2025-11-25 id is required, after it is optional but never null). Everything
    // else of it is checked: the envelope with a stand-in id, the error object, no extra members.
    check(version, envDef, { ...msg, id: 0 }, o.open);
  } else {
    check(version, envDef, msg, o.open);
  }
  if (!isErr) {
    // 2026-07-28: a request that may ask answers InputRequiredResult or its own result (basic/patterns/mrtr).
    const inputRequired = (msg.result as { resultType?: unknown } | undefined)?.resultType === "input_required";
    check(version, inputRequired ? "InputRequiredResult" : resultDef(version, method), msg.result, o.open);
  }
}

/**
 * Asserts that a value matches one definition of the version's schema (e.g. ElicitRequest, InputRequest).
 * @throws Error listing the schema violations.
 */
export function assertValid(version: string, def: string, value: unknown): void {
  check(version, def, value);
}

/** Asserts that a server → client request (elicitation/create, sampling/createMessage, roots/list) matches its definition, envelope included. */
export function assertValidRequest(version: string, def: string, msg: Record<string, unknown>): void {
  const schema = require(`../fixtures/schema/${version}/schema.json`);
  const d = (schema.$defs ?? schema.definitions)[def];
  check(version, "JSONRPCRequest", msg);
  if (d && !("jsonrpc" in (d.properties ?? {}))) {
    const { jsonrpc: _, id: __, ...rest } = msg;
    check(version, def, rest);
  } else check(version, def, msg);
}

/** Asserts that a notification (or any message) matches the schema's definition (e.g. ProgressNotification), envelope included. */
export function assertValidNotification(version: string, def: string, msg: unknown): void {
  const schema = require(`../fixtures/schema/${version}/schema.json`);
  const d = (schema.$defs ?? schema.definitions)[def];
  // Up to 2025-06-18 a notification definition is {method, params}; the envelope adds jsonrpc.
  if (
    typeof msg === "object" &&
    msg !== null &&
    "jsonrpc" in msg &&
    "method" in msg &&
    d &&
    !("jsonrpc" in (d.properties ?? {}))
  ) {
    check(version, "JSONRPCNotification", msg);
    const { jsonrpc: _, ...rest } = msg as Record<string, unknown>;
    check(version, def, rest);
    return;
  }
  check(version, def, msg);
}

/** Asserts that a value matches one definition of the version's schema (e.g. `Resource`, `PromptMessage`). */
export function assertValidDef(version: string, def: string, value: unknown): void {
  check(version, def, value);
}

function check(version: string, def: string, value: unknown, open = false): void {
  const v = validator(version, def, open);
  if (!v(value))
    throw new Error(
      `${version} ${def} violated: ${JSON.stringify(v.errors, null, 1)}\nvalue: ${JSON.stringify(value)}`,
    );
}
