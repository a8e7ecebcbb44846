// The build's summary counts what a server serves, truthfully: tools, resources (templates included), prompts, and the
// upstream servers of a hub (whose tools are known only when it runs). In-process: pure functions.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { prompt, resource, resourceTemplate, tool } from "../../src/index.ts";
import { countsLine, countsOf } from "../../src/build/counts.ts";

const echo = tool({
  name: "echo",
  description: "echo",
  input: v.object({ text: v.string() }),
  run: ({ text }) => text,
});
const readme = resource({ uri: "docs://readme", name: "readme", read: () => "hi" });
const page = resourceTemplate({ uriTemplate: "docs://pages/{n}", name: "page", read: () => "p" });
const greet = prompt({ name: "greet", description: "greet", get: () => "hello" });

test("a server with tools, resources and prompts: each kind counted", () => {
  const c = countsOf({ name: "s", version: "1", tools: [echo], resources: [readme, [page]], prompts: [greet] });
  expect(c).toEqual({ tools: 1, resources: 2, prompts: 1, upstreams: 0, skills: 0 });
  expect(countsLine(c)).toBe("1 tool, 2 resources, 1 prompt");
});

test("tools only reads as before; nothing at all is 0 tools", () => {
  expect(countsLine(countsOf({ name: "s", version: "1", tools: [echo, echo] }))).toBe("2 tools");
  expect(countsLine({ tools: 0, resources: 0, prompts: 0, upstreams: 0 })).toBe("0 tools");
});

test("a hub: its upstream servers, disabled ones left out, not 0 tools", () => {
  const c = countsOf({
    name: "hub",
    version: "1",
    tools: [],
    upstreams: { a: { command: "/bin/a" }, b: { url: "http://x" }, c: { command: "/bin/c", disabled: true } } as never,
  });
  expect(c).toEqual({ tools: 0, resources: 0, prompts: 0, upstreams: 2, skills: 0 });
  expect(countsLine(c)).toBe("2 upstream servers (their tools are listed when the executable starts)");
  expect(countsLine({ ...c, tools: 1 })).toBe(
    "1 tool, and 2 upstream servers (their tools are listed when the executable starts)",
  );
});
