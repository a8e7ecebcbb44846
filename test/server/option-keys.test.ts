// Options that do nothing, silently: every options object an author writes (server, `http`, tool, resource,
// resource template, prompt, app, upstream entry) refuses an unknown key with the allowed keys and a "did you
// mean", at definition and start (the build's check run evaluates the same code), so a server its author
// believes protected (`http: { oauth }` for `auth`, `tool({ scope })` for `scopes`) never serves open.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { app, createServer, openapiTools, prompt, resource, resourceTemplate, tool } from "../../src/index.ts";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";
import { mcpbin, oneLineError } from "../cli/run-cli.ts";

setDefaultTimeout(60_000);
afterAll(removeProjects);

const run = () => 1;
const base = { name: "a", description: "a", run };
const server = (o: Record<string, unknown>) => () =>
  createServer({ name: "s", version: "1", tools: [tool(base)], ...o } as never);

test("options that do nothing: tool() refuses an unknown key, naming the allowed ones and the nearest", () => {
  expect(() => tool({ ...base, readOnly: true } as never)).toThrow(
    /tool "a": "readOnly" is not a known key \(allowed: name, title, description, .*run\)/,
  );
  expect(() => tool({ ...base, timeoutMS: 5 } as never)).toThrow('did you mean "timeoutMs"?');
  expect(() => tool({ ...base, inputschema: {} } as never)).toThrow('did you mean "inputSchema"?');
});

test("options that do nothing: resource(), resourceTemplate(), prompt() and app() refuse unknown keys with a did-you-mean", () => {
  expect(() => resource({ uri: "docs://a", name: "a", text: "x", mimetype: "text/plain" } as never)).toThrow(
    /resource "docs:\/\/a": "mimetype" is not a known key \(did you mean "mimeType"\? allowed: .*uri.*\)/,
  );
  expect(() =>
    resourceTemplate({ uriTemplate: "docs:///{x}", name: "t", read: () => "", variabels: {} } as never),
  ).toThrow('did you mean "variables"?');
  expect(() => prompt({ name: "p", get: () => "x", argumnets: {} } as never)).toThrow(
    /prompt "p": "argumnets" is not a known key \(did you mean "arguments"\?/,
  );
  expect(() => app({ uri: "ui://a/b", name: "b", html: "<p>", prefersborder: true } as never)).toThrow(
    'did you mean "prefersBorder"?',
  );
});

test("options that do nothing: the server's options, its http object and an upstream entry refuse unknown keys", () => {
  expect(server({ http: { port: 0, oauth: { issuer: "https://id.example" } } })).toThrow(
    /"http\.oauth" is not a known key \(did you mean "auth"\? allowed: port, host, path, token/,
  );
  expect(server({ http: { port: 0, tokn: "x" } })).toThrow('"http.tokn" is not a known key (did you mean "token"?');
  expect(server({ middlewares: [] })).toThrow(
    '"middlewares" is not a known option (did you mean "middleware"? allowed:',
  );
  expect(server({ upstreams: { gh: { command: "gh-mcp", envs: {} } } })).toThrow(
    '"upstreams.gh.envs" is not a known key (did you mean "env"?',
  );
});

test("options that do nothing: openapiTools() refuses an unknown key (readonly: true would expose every write operation)", async () => {
  const doc = {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    servers: [{ url: "https://api.example.test" }],
    paths: {},
  };
  await expect(openapiTools(doc, { readonly: true } as never)).rejects.toThrow(
    'openapiTools(): "readonly" is not a known key (did you mean "readOnly"?',
  );
  await expect(openapiTools(doc, { redirectOrigin: ["https://cdn.example.test"] } as never)).rejects.toThrow(
    'did you mean "redirectOrigins"?',
  );
});

test("options that do nothing: the build fails on tool({ scope }) and serve({ http: { oauth } }) in one line", async () => {
  const script = (body: string) => `import { serve, tool } from "mcpbin";\n${body}\n`;
  const dir = writeProject({
    "scoped.ts": script(
      `await serve({ name: "s", version: "1.0.0", tools: [tool({ name: "a", description: "a", scope: ["admin"], run: () => 1 } as never)] });`,
    ),
    "authed.ts": script(
      `await serve({ name: "s", version: "1.0.0", tools: [tool({ name: "a", description: "a", run: () => 1 })], http: { port: 0, oauth: { issuer: "https://id.example" } } } as never);`,
    ),
  });
  expect(oneLineError(await mcpbin(["build", "scoped.ts", "--outfile", "dist/s"], dir))).toContain(
    'tool "a": "scope" is not a known key (did you mean "scopes"?',
  );
  expect(oneLineError(await mcpbin(["build", "authed.ts", "--outfile", "dist/s"], dir))).toContain(
    '"http.oauth" is not a known key (did you mean "auth"?',
  );
});
