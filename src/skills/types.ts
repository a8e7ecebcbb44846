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

/**
 * Skills served from elsewhere (an upstream's, through a gateway's content provider as its `skills`): the skills
 * methods consult the server's own skills first, then each provider's source that is {@link declared}.
 */
export interface SkillSource {
  /** Whether it serves skills now (an upstream declared the extension). */
  readonly declared: boolean;
  /** Whether `resources/directory/read` reaches it. */
  readonly directoryRead: boolean;
  /** Every skill entry, with URIs as this server serves them. */
  list(): Promise<SkillEntry[]>;
  /** One entry by its SKILL.md URI; undefined when the URI is not one of its skills. */
  get(uri: string): Promise<SkillEntry | undefined>;
  /** A directory's children (MCP Resource objects); undefined when the URI is not one of its directories. */
  directory(uri: string): Promise<Record<string, unknown>[] | undefined>;
}
