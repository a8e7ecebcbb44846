/** @module skills(): the skills of one or more folders as a server serves them: their entries, their files as resources, their directories. */
import { logLine } from "../runtime/log-name.ts";
import { contract } from "../runtime/contract.ts";
import { callerFile } from "../content/files.ts";
import { resource, type ListedResource, type Resource } from "../content/resource.ts";
import { scanSkills, SkillDefinitionError, type SkillRecord } from "./scan.ts";
import { DIRECTORY_MIME_TYPE, type SkillEntry } from "./types.ts";

export { SKILLS_EXTENSION, DIRECTORY_MIME_TYPE, type SkillEntry } from "./types.ts";

/** The `_meta` prefix the extension gives skill resources' extra fields. */
const META_PREFIX = "io.modelcontextprotocol.skills/";
/** Where the build's check run records a skills path's manifest, in the build contract's `schemas`. */
const MANIFEST_KEY_PREFIX = "skills\u0000";
const BRAND = Symbol.for("mcpbin.skills");

/** The skills a server serves (from {@link skills}): give it to `serve({ skills })`. */
export interface SkillSet {
  readonly [BRAND]: true;
  /** Every skill, ordered by URI. */
  readonly entries: readonly SkillEntry[];
  /** Each skill file as a resource (one per URI), for the resources methods. */
  readonly resources: readonly Resource[];
  /** A skill by the URI of its SKILL.md. */
  get(uri: string): SkillEntry | undefined;
  /** The direct children of a directory resource, or undefined when `uri` is not a directory served here. */
  directory(uri: string): readonly ListedResource[] | undefined;
}

/** True for a value made by {@link skills}. */
export function isSkillSet(x: unknown): x is SkillSet {
  return typeof x === "object" && x !== null && BRAND in x;
}

/**
 * The skills under one or more folders (the skills extension, `io.modelcontextprotocol/skills`): each folder
 * with a SKILL.md (YAML frontmatter with `name` and `description`, the name equal to the folder's) is a skill,
 * every file in it a resource `skill://<skill-path>/<file>`. `mcpbin build` embeds every file in the executable;
 * an executable reads the manifest its build recorded, so it does no file-system work at start.
 * @param paths - folders, relative to the module that calls (or absolute); or SkillSets, merged.
 * @returns the skills, checked.
 * @throws SkillDefinitionError naming the skill and the rule: a missing folder, a bad or missing frontmatter,
 *   a name that breaks the naming rules or differs from its folder, two skills at one URI.
 */
export function skills(...paths: readonly (string | SkillSet | readonly (string | SkillSet)[])[]): SkillSet {
  const from = callerFile();
  const records: SkillRecord[] = [];
  const merged: SkillSet[] = [];
  for (const p of paths.flat()) {
    if (isSkillSet(p)) merged.push(p);
    else if (typeof p === "string") records.push(...manifestOf(p, from));
    else
      throw new SkillDefinitionError(
        `skills: each entry must be a folder path (a string); got ${p === null ? "null" : typeof p}`,
      );
  }
  return buildSet(records, merged);
}

const RESOLVED = new WeakMap<readonly unknown[], SkillSet>();

/**
 * The skills of a server's `skills` option, resolved once per option array: the first call (createServer(),
 * in the author's module, so relative paths resolve against it) makes the set; later calls with the same
 * array (the build's check run, which builds the server again from the options serve() was given) reuse it.
 * @param list - the `skills` option.
 * @returns the set, or undefined for none.
 */
export function skillsOption(list: readonly (string | SkillSet)[] | undefined): SkillSet | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list))
    throw new SkillDefinitionError(`serve(): "skills" must be an array of folder paths, e.g. skills: ["./skills"]`);
  if (list.length === 0) return undefined;
  let set = RESOLVED.get(list);
  if (!set) RESOLVED.set(list, (set = skills(list)));
  return set;
}

/** The records of one skills path: recorded by the build (in an executable), else scanned now. */
function manifestOf(given: string, from: string | undefined): SkillRecord[] {
  const c = contract();
  const key = MANIFEST_KEY_PREFIX + given;
  const recorded = c.recordFiles === true ? undefined : c.schemas?.get(key);
  if (typeof recorded === "string") return JSON.parse(recorded) as SkillRecord[];
  const path = require("node:path") as typeof import("node:path");
  const root = path.isAbsolute(given) ? given : path.resolve(from ? path.dirname(from) : process.cwd(), given);
  const warnings = c.schemaWarnings;
  const found = scanSkills(root, (m) => (warnings ? warnings.push(m) : logLine(`warning: ${m}`)));
  if (c.recordFiles === true) c.schemas?.set(key, JSON.stringify(found));
  return found;
}

function buildSet(records: readonly SkillRecord[], merged: readonly SkillSet[]): SkillSet {
  const entries = new Map<string, SkillEntry>();
  const byUri = new Map<string, Resource>();
  const children = new Map<string, Map<string, ListedResource>>();
  const addChild = (fileUri: string, listing: ListedResource): void => {
    // skill://a/b/c.md → directory skill://a/b lists it; skill://a lists skill://a/b; and so on up to the authority.
    let child = fileUri;
    let item = listing;
    for (let cut = child.lastIndexOf("/"); cut > "skill://".length; cut = child.lastIndexOf("/")) {
      const dir = child.slice(0, cut);
      let m = children.get(dir);
      if (!m) children.set(dir, (m = new Map()));
      const known = m.has(child);
      m.set(child, item);
      if (known) return;
      item = { uri: dir, name: dir.slice(dir.lastIndexOf("/") + 1), mimeType: DIRECTORY_MIME_TYPE };
      child = dir;
    }
  };
  for (const s of merged) {
    for (const e of s.entries) add(e);
    for (const r of s.resources) byUri.set(r.uri, r);
    for (const e of s.entries) for (const f of e.resources) addChild(f.uri, listingOf(byUri.get(f.uri)!));
  }
  for (const rec of records) {
    const name = rec.frontmatter.name as string;
    const entry: SkillEntry = {
      uri: `skill://${rec.path}/SKILL.md`,
      frontmatter: rec.frontmatter,
      resources: rec.files.map((f) => ({ uri: `skill://${rec.path}/${f.rel}`, digest: f.digest, size: f.size })),
    };
    add(entry);
    for (const f of rec.files) {
      const uri = `skill://${rec.path}/${f.rel}`;
      if (byUri.has(uri)) continue; // a nested skill's file, made once for the enclosing skill
      const isManifest = f.rel === "SKILL.md";
      const extra = Object.entries(rec.frontmatter).filter(([k]) => k !== "name" && k !== "description");
      const r = resource({
        uri,
        name: isManifest ? name : f.rel.slice(f.rel.lastIndexOf("/") + 1),
        ...(isManifest ? { description: rec.frontmatter.description as string, mimeType: "text/markdown" } : {}),
        ...(isManifest && extra.length
          ? { meta: Object.fromEntries(extra.map(([k, v]) => [META_PREFIX + k, v])) }
          : {}),
        size: f.size,
        file: f.path,
      });
      byUri.set(uri, r);
      addChild(uri, listingOf(r));
    }
  }
  function add(e: SkillEntry): void {
    if (entries.has(e.uri))
      throw new SkillDefinitionError(
        `skill ${e.uri} is served twice: two skills paths hold a skill at the same path; rename or move one`,
      );
    entries.set(e.uri, e);
  }
  const sorted = [...entries.values()].sort((a, b) => (a.uri < b.uri ? -1 : 1));
  return {
    [BRAND]: true,
    entries: sorted,
    resources: [...byUri.values()],
    get: (uri) => entries.get(uri),
    directory: (uri) => {
      const m = children.get(uri);
      return m ? [...m.values()].sort((a, b) => (a.uri < b.uri ? -1 : 1)) : undefined;
    },
  };
}

/** A resource's listing fields, as a directory read lists a file. */
function listingOf(r: Resource): ListedResource {
  const d = r.definition;
  return {
    uri: r.uri,
    name: r.name,
    ...(d.description !== undefined ? { description: d.description } : {}),
    ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
    ...(r.size !== undefined ? { size: r.size } : {}),
    ...(d.meta !== undefined ? { meta: d.meta } : {}),
  };
}

declare module "../shared/server-options.ts" {
  /** The key of the server options that holds the skills (src/shared/server-options.ts). */
  interface ServerOptions {
    /**
     * Agent Skills served over MCP (extension io.modelcontextprotocol/skills): folders (relative to the module
     * that calls serve(), or absolute) whose sub-folders with a SKILL.md are skills, or `skills()` sets.
     * `mcpbin build` embeds every file. See docs/skills.md.
     */
    readonly skills?: readonly (string | SkillSet)[];
  }
}
