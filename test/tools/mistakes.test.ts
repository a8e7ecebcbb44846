// Author mistakes that a new user hit, each with a message that says what to change.
import { expect, test } from "bun:test";
import { createServer, tool } from "../../src/index.ts";
import { mcpbin, oneLineError } from "../cli/run-cli.ts";

test("tool() without a name says that it needs one (not `tool name undefined`)", () => {
  expect(() => tool({ description: "Add", run: () => 1 } as never)).toThrow(
    'tool() needs a "name": 1-64 characters from A-Z a-z 0-9 _ - (e.g. name: "add_numbers")',
  );
});

test("serve({ tools: add }) with one tool instead of an array says to put it in [ ]", () => {
  const add = tool({ name: "add", description: "Add", run: () => 1 });
  expect(() => createServer({ name: "s", version: "1.0.0", tools: add as never })).toThrow(
    'serve(): "tools" must be an array of tools, e.g. tools: [add]; got one tool (put it in [ ])',
  );
});

test("mcpbin call with the entry first says the order instead of calling the JSON an entry", async () => {
  const r = await mcpbin(["call", "test/fixtures/servers/fixture.ts", "add_numbers", '{"x":1,"y":2}']);
  expect(oneLineError(r)).toBe(
    `mcpbin: call: the tool comes first: mcpbin call add_numbers '{"x":1,"y":2}' test/fixtures/servers/fixture.ts`,
  );
});
