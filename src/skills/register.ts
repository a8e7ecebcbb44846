/** @module The skills extension registered with the core: skills/list, skills/get, resources/directory/read, and the extension declared when the server serves skills (its own or an upstream's). */
import { registerCapability } from "../server/register.ts";
import { SKILLS_METHODS, withSkillsExtension } from "./methods.ts";
import { installSkills } from "./server-state.ts";

registerCapability({
  name: "skills",
  methods: SKILLS_METHODS,
  // The skills it serves (registry.skills).
  server: installSkills,
  // `extensions["io.modelcontextprotocol/skills"]` in initialize and server/discover when the server serves skills;
  // `capabilities.extensions` is a 2026-07-28 field, so a legacy session gets it when its client declared extensions.
  project: (caps, ctx) => {
    const ext = (ctx.client.capabilities as { extensions?: unknown }).extensions;
    return withSkillsExtension(
      caps,
      ctx.connection.registry,
      ctx.era === "modern" || (typeof ext === "object" && ext !== null),
    );
  },
});
