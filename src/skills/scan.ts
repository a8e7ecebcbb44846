/** @module Finding the skills under a folder at build time (or from source): their files, sizes, digests and frontmatter, checked, as one manifest. */
import { frontmatterProblems, readFrontmatter } from "./frontmatter.ts";

const nodeFs = (): typeof import("node:fs") => require("node:fs") as typeof import("node:fs");
const nodePath = (): typeof import("node:path") => require("node:path") as typeof import("node:path");

/** One file of a skill as the manifest records it. */
export interface SkillFileRecord {
  /** Its path relative to the skill's folder, `/`-separated. */
  readonly rel: string;
  /** Its absolute path on the machine that scanned it (the key of the embedded copy in an executable). */
  readonly path: string;
  /** Length in bytes. */
  readonly size: number;
  /** `sha256:<64 lowercase hex>` of its raw bytes. */
  readonly digest: string;
}

/** One skill as the manifest records it. */
export interface SkillRecord {
  /** The `<skill-path>` of its URIs: the folder relative to the skills path, `/`-separated; its last segment is the name. */
  readonly path: string;
  /** The SKILL.md frontmatter as a JSON object, verbatim. */
  readonly frontmatter: Record<string, unknown>;
  /** Every file of the skill (nested skills' files included), SKILL.md first. */
  readonly files: readonly SkillFileRecord[];
}

/** A skill folder an author got wrong: one line naming the skill and the rule. */
export class SkillDefinitionError extends Error {
  readonly code = "SKILL_DEFINITION";
  constructor(message: string) {
    super(message);
    this.name = "SkillDefinitionError";
  }
}

/** The limits a served skill should keep (the skills extension): entries and total bytes. */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;
/** A scan stops past this many files under one skills path (a wrong path such as a home folder). */
const MAX_SCANNED_FILES = 20_000;

/**
 * Scans one skills path: a folder whose sub-folders (at any depth) holding a SKILL.md are skills, or one
 * skill's own folder. Dot-files and dot-folders are left out; symbolic links are not followed (a link could
 * embed a file from outside the folder).
 * @param root - absolute path of the folder.
 * @param warn - receives each warning (the limits, a reserved metadata key, duplicate names).
 * @returns the skills, ordered by path.
 * @throws SkillDefinitionError when the folder is missing, holds no skill, or a skill breaks a rule.
 */
export function scanSkills(root: string, warn: (message: string) => void): SkillRecord[] {
  const fs = nodeFs();
  const path = nodePath();
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory())
    throw new SkillDefinitionError(
      `skills path ${root} is not a folder: fix the path (a relative path is resolved against the module that calls serve())`,
    );
  const single = fs.existsSync(path.join(root, "SKILL.md"));
  const base = single ? path.dirname(root) : root;
  const files: string[] = []; // relative to base, "/"-separated
  const walk = (dir: string, rel: string): void => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (d.name.startsWith(".")) continue;
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isSymbolicLink()) {
        warn(
          `skills: ${path.join(dir, d.name)} is a symbolic link and is left out (copy the file into the skill instead)`,
        );
        continue;
      }
      if (d.isDirectory()) walk(path.join(dir, d.name), r);
      else if (d.isFile()) {
        files.push(r);
        if (files.length > MAX_SCANNED_FILES)
          throw new SkillDefinitionError(
            `skills path ${root} holds over ${MAX_SCANNED_FILES} files: point "skills" at the folder of your skills`,
          );
      }
    }
  };
  walk(single ? root : base, single ? path.basename(root) : "");
  const skillDirs = files
    .filter((f) => f === "SKILL.md" || f.endsWith("/SKILL.md"))
    .map((f) => f.slice(0, -"/SKILL.md".length));
  if (skillDirs.includes(""))
    throw new SkillDefinitionError(
      `skills path ${root}: a SKILL.md at the top of a skills folder has no skill folder around it; put each skill in a folder named after it`,
    );
  if (skillDirs.length === 0)
    throw new SkillDefinitionError(`skills path ${root} holds no skill: each skill is a folder with a SKILL.md`);
  const out: SkillRecord[] = [];
  for (const dir of skillDirs) {
    const label = `skill "${dir}" (${path.join(base, dir)})`;
    const segments = dir.split("/");
    const folder = segments[segments.length - 1]!;
    for (const s of segments.slice(0, -1)) {
      if (!/^[A-Za-z0-9._~-]+$/.test(s))
        throw new SkillDefinitionError(
          `${label}: the folder "${s}" becomes part of its skill:// URI: use letters, digits, ".", "_", "~" and "-" only`,
        );
    }
    const text = fs.readFileSync(path.join(base, dir, "SKILL.md"), "utf8");
    const fm = readFrontmatter(text);
    if (!fm.ok) throw new SkillDefinitionError(`${label}: ${fm.problem}`);
    const problems = frontmatterProblems(fm.data, folder);
    if (problems.length) throw new SkillDefinitionError(`${label}: ${problems.join("; ")}`);
    const meta = fm.data.metadata;
    if (meta && typeof meta === "object" && Object.keys(meta).some((k) => k.startsWith("io.modelcontextprotocol/"))) {
      warn(`${label}: metadata keys starting "io.modelcontextprotocol/" are reserved for MCP extensions`);
    }
    const own = files.filter((f) => f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1));
    own.sort((a, b) => (a === "SKILL.md" ? -1 : b === "SKILL.md" ? 1 : a < b ? -1 : 1));
    const records = own.map((rel): SkillFileRecord => {
      const abs = path.join(base, dir, rel);
      const bytes = fs.readFileSync(abs);
      return {
        rel,
        path: abs,
        size: bytes.byteLength,
        digest: `sha256:${new Bun.CryptoHasher("sha256").update(bytes).digest("hex")}`,
      };
    });
    const total = records.reduce((n, r) => n + r.size, 0);
    if (records.length > SKILL_LIMITS.files)
      warn(`${label}: ${records.length} files; a served skill should have at most ${SKILL_LIMITS.files}`);
    if (total > SKILL_LIMITS.bytes) warn(`${label}: ${total} bytes; a served skill should be at most 16 MiB`);
    out.push({ path: dir, frontmatter: fm.data, files: records });
  }
  return out;
}
