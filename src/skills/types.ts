/** @module The skills extension's names and wire shapes, shared by the server side and the client side. */

/** The skills extension's identifier in `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
/** The mimeType of a directory resource (skills extension, `resources/directory/read`). */
export const DIRECTORY_MIME_TYPE = "inode/directory";

/** A skill entry as `skills/list` and `skills/get` send it. */
export interface SkillEntry {
  /** The URI of its SKILL.md. */
  readonly uri: string;
  /** Its SKILL.md frontmatter, verbatim. */
  readonly frontmatter: Record<string, unknown>;
  /** Every file of the skill with its digest (`sha256:<hex>`) and size in bytes, SKILL.md first. */
  readonly resources: readonly { readonly uri: string; readonly digest: string; readonly size: number }[];
}

/** A skill file whose content is not what its entry promised (skills extension, "Integrity and verification"): do not use it. */
export class SkillVerificationError extends Error {
  readonly code = "SKILL_VERIFICATION";
  constructor(message: string) {
    super(message);
    this.name = "SkillVerificationError";
  }
}
