/** @module server.json for the MCP Registry: the server's name in reverse-DNS form, its version and description, one `mcpb` package per bundle with its download URL and SHA-256, and the environment variables it reads. */

/** The server.json schema this file follows (the MCP Registry's published schema of 2025-12-11). */
export const SERVER_JSON_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
/** The registry's longest description. */
const MAX_DESCRIPTION = 100;
/** A registry name: `<namespace in reverse-DNS>/<server>`. */
export const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** One bundle a release or `mcpbin bundle` wrote. */
export interface RegistryPackage {
  /** The file's name (e.g. `weather-1.0.0-linux-x64.mcpb`). */
  readonly file: string;
  /** SHA-256 of its bytes, lowercase hex. */
  readonly sha256: string;
}

/** What {@link serverJson} takes. */
export interface ServerJsonInput {
  /** `serverInfo.name` (the last part of the registry name when none is given). */
  readonly serverName: string;
  readonly version: string;
  readonly description: string;
  readonly title?: string;
  /** `<namespace>/<name>` (e.g. `io.github.alice/weather`); default package.json's `mcpName`, else a placeholder to edit. */
  readonly registryName?: string;
  /** Where each file is downloaded from: `{file}` and `{version}` are filled in (default a GitHub release URL to edit). */
  readonly downloadUrl?: string;
  /** A repository URL (package.json `repository`), when known. */
  readonly repository?: string;
  readonly packages: readonly RegistryPackage[];
  /** Environment variables the server reads (from the build's scan), secrets marked. */
  readonly env: readonly { readonly name: string; readonly sensitive?: boolean }[];
}

/**
 * The server.json the MCP Registry takes for a release (its published schema of 2025-12-11): one package of
 * `registryType: "mcpb"` per bundle, each with its download URL and `fileSha256`, `transport: stdio`, and the
 * environment variables the server reads. A name or URL not given is a placeholder (`YOUR-GITHUB-USER`), named
 * in `todo` so the CLI can say what to edit before publishing.
 * @returns the document, and what is left to edit.
 */
export function serverJson(i: ServerJsonInput): { json: Record<string, unknown>; todo: string[] } {
  const todo: string[] = [];
  const slug =
    i.serverName
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "server";
  let name = i.registryName;
  if (name === undefined) {
    name = `io.github.YOUR-GITHUB-USER/${slug}`;
    todo.push(`"name" (${name}): give --registry-name io.github.<user>/${slug}, or "mcpName" in package.json`);
  } else if (!REGISTRY_NAME.test(name)) {
    throw new Error(
      `registry name "${name}" is not <namespace>/<name> in reverse-DNS form (e.g. io.github.alice/${slug})`,
    );
  }
  let url = i.downloadUrl;
  if (url === undefined) {
    url = `https://github.com/YOUR-GITHUB-USER/${slug}/releases/download/v{version}/{file}`;
    todo.push(`each package's "identifier" (${url}): give --download-url with {version} and {file}`);
  }
  let description = i.description.replace(/\s+/g, " ").trim();
  if (description.length > MAX_DESCRIPTION) {
    todo.push(`"description" was cut to ${MAX_DESCRIPTION} characters (the registry's limit): write a shorter one`);
    description = `${description.slice(0, MAX_DESCRIPTION - 1)}…`;
  }
  const env = i.env.map((e) => ({
    name: e.name,
    description: `Sets ${e.name}, which the server reads`,
    isRequired: false,
    isSecret: e.sensitive === true,
    format: "string",
  }));
  const json: Record<string, unknown> = {
    $schema: SERVER_JSON_SCHEMA,
    name,
    ...(i.title ? { title: i.title } : {}),
    description: description || `MCP server ${i.serverName}`,
    version: i.version,
    ...(i.repository
      ? { repository: { url: i.repository, source: new URL(i.repository).hostname.replace(/^www\.|\.com$/g, "") } }
      : {}),
    packages: i.packages.map((p) => ({
      registryType: "mcpb",
      identifier: url!.replaceAll("{version}", i.version).replaceAll("{file}", p.file),
      version: i.version,
      fileSha256: p.sha256,
      transport: { type: "stdio" },
      ...(env.length ? { environmentVariables: env } : {}),
    })),
  };
  return { json, todo };
}
