/** @module What the skills capability keeps on the server (ServerState, src/server/connection.ts): the skills it serves (the skills extension), whose files the catalog serves as resources. */
import { addResourceSource } from "../content/server-state.ts";
import type { ServerState } from "../server/connection.ts";
import type { ServerOptions } from "../server/options.ts";
import { skillsOption, type SkillSet } from "./skill-set.ts";

declare module "../server/connection.ts" {
  interface ServerState {
    /** The skills it serves, when `skills` gave any. */
    readonly skills: SkillSet | undefined;
  }
}

/**
 * Gives a server its skills (the skills capability's `server` hook, src/skills/register.ts).
 * @throws SkillDefinitionError for a bad `skills` option or skill folder.
 */
export function installSkills(registry: ServerState, options: ServerOptions): void {
  Object.defineProperty(registry, "skills", { value: skillsOption(options.skills), enumerable: true });
}

addResourceSource((registry) => registry.skills?.resources ?? []);
