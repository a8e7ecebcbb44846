/** @module The skills extension registered with the core: skills/list, skills/get, resources/directory/read, and the extension declared when the server serves skills. */
import { registerCapability } from "../server/register.ts";
import { SKILLS_METHODS, withSkillsExtension } from "./methods.ts";
import type { SkillSet } from "./skill-set.ts";

registerCapability({
  name: "skills",
  methods: SKILLS_METHODS,
  // `extensions["io.modelcontextprotocol/skills"]` in initialize and server/discover when the server serves skills.
  project: (caps, ctx) => withSkillsExtension(caps, (ctx.connection.registry as { skills?: SkillSet }).skills),
});
