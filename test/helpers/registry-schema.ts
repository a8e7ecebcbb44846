/**
 * @module The MCP Registry's server.json rules (its published schema of 2025-12-11, the fields mcpbin writes) as a
 * valibot schema, for the release and bundle tests: name pattern and length, description 1–100 characters, a specific
 * version (no range, not "latest"), packages with no unknown field, mcpb packages with a URL identifier and a
 * 64-hex fileSha256, stdio transport, environment variables as the schema's KeyValueInput.
 */
import * as v from "valibot";

const RANGE = /^[\^~<>=*]|(^|\.)(x|\*)(\.|$)|\s-\s|\|\|/;
const version = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(255),
  v.check((s) => s !== "latest" && !RANGE.test(s), "a specific version, not a range"),
);
const input = {
  description: v.optional(v.string()),
  isRequired: v.optional(v.boolean()),
  format: v.optional(v.picklist(["string", "number", "boolean", "filepath"])),
  value: v.optional(v.string()),
  isSecret: v.optional(v.boolean()),
  default: v.optional(v.string()),
  placeholder: v.optional(v.string()),
  choices: v.optional(v.array(v.string())),
};
const keyValue = v.strictObject({ name: v.string(), ...input });
const pkg = v.strictObject({
  registryType: v.string(),
  registryBaseUrl: v.optional(v.pipe(v.string(), v.url())),
  identifier: v.string(),
  version,
  fileSha256: v.optional(v.pipe(v.string(), v.regex(/^[a-f0-9]{64}$/))),
  runtimeHint: v.optional(v.string()),
  transport: v.union([
    v.strictObject({ type: v.literal("stdio") }),
    v.object({ type: v.picklist(["streamable-http", "sse"]), url: v.string() }),
  ]),
  environmentVariables: v.optional(v.array(keyValue)),
});

/** server.json as the registry takes it (the fields mcpbin writes; mcpb packages need a URL and fileSha256). */
export const SERVER_JSON = v.pipe(
  v.object({
    $schema: v.literal("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"),
    name: v.pipe(v.string(), v.minLength(3), v.maxLength(200), v.regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/)),
    title: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
    description: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
    version,
    repository: v.optional(v.object({ url: v.pipe(v.string(), v.url()), source: v.string() })),
    packages: v.array(pkg),
  }),
  v.check(
    (s) =>
      s.packages.every(
        (p) => p.registryType !== "mcpb" || (p.fileSha256 !== undefined && /^https:\/\//.test(p.identifier)),
      ),
    "mcpb packages need an https identifier and fileSha256",
  ),
);
