/** @module `mcpbin auth`: the OAuth sign-ins kept in the user's config folder, listed or forgotten. */
import { authCommand } from "../auth.ts";
import { parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = { all: { type: "boolean" } } as const satisfies ParseArgsOptionsConfig;

/** `mcpbin auth`. */
export const authCliCommand: Command = {
  name: "auth",
  help: `  mcpbin auth list | logout URL | logout --all
                 the OAuth sign-ins kept in the config folder (~/.config/mcpbin/oauth):
                 issuers, clients, scopes and expiry (never tokens); logout forgets them`,
  options: OPTIONS,
  run: async (args) => {
    const { values, positionals } = parse("auth", args, OPTIONS);
    return authCommand([...positionals, ...(values.all === true ? ["--all"] : [])]);
  },
};
