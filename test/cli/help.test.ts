// The CLI is a table of commands (src/cli/commands/index.ts); its help comes from the same definitions, so an option a
// command takes is named in its help, and a mistyped command gets "did you mean". In-process: pure functions.
import { expect, test } from "bun:test";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { commandHelp, didYouMean, overview } from "../../src/cli/help.ts";

test("every command's options are named in its help, and its help is its part of the overview", () => {
  const all = overview();
  for (const c of COMMANDS) {
    for (const option of Object.keys(c.options))
      expect({ command: c.name, named: c.help.includes(`--${option}`) }).toEqual({ command: c.name, named: true });
    expect(c.help.startsWith(`  mcpbin ${c.name} `)).toBe(true);
    expect(all).toContain(c.help);
    expect(commandHelp(c.name)).toStartWith(`Usage:\n${c.help}\n\n`);
  }
  expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
  expect(commandHelp("frobnicate")).toBeUndefined();
});

test("a mistyped command gets the nearest one, and a word near none gets none", () => {
  expect(didYouMean("biuld")).toBe("build");
  expect(didYouMean("lsit")).toBe("list");
  expect(didYouMean("buidl")).toBe("build");
  expect(didYouMean("proxi")).toBe("proxy");
  expect(didYouMean("opneapi")).toBe("openapi");
  expect(didYouMean("Build")).toBe("build");
  expect(didYouMean("frobnicate")).toBeUndefined();
  expect(didYouMean("x")).toBeUndefined();
});
