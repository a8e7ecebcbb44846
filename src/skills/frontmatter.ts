/** @module A SKILL.md's YAML frontmatter: found, parsed, and its name checked against the Agent Skills naming rules. */
// yaml is required on first use: a server's start (which imports this module with the registry) never evaluates it.
const parse = (text: string, options: object): unknown =>
  (require("yaml") as typeof import("yaml")).parse(text, options);

/** What a SKILL.md's frontmatter gave, or why it gave nothing usable. */
export type Frontmatter =
  { readonly ok: true; readonly data: Record<string, unknown> } | { readonly ok: false; readonly problem: string };

/**
 * Reads the YAML frontmatter at the start of a SKILL.md: a first line `---`, the YAML, a line `---`.
 * @param text - the file's text (UTF-8 decoded).
 * @returns the frontmatter as a JSON object (the YAML rendered verbatim), or the problem in one phrase.
 */
export function parseFrontmatter(text: string): Frontmatter {
  const body = text.startsWith("\ufeff") ? text.slice(1) : text;
  const m =
    /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(body) ??
    /^---[ \t]*\r?\n()---[ \t]*(?:\r?\n|$)/.exec(body);
  if (!m) return { ok: false, problem: "SKILL.md must begin with YAML frontmatter between two --- lines" };
  let data: unknown;
  try {
    data = parse(m[1]!, { prettyErrors: false });
  } catch (e) {
    return { ok: false, problem: `its frontmatter is not valid YAML (${(e as Error).message.split("\n")[0]})` };
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    return { ok: false, problem: "its frontmatter must be a YAML mapping (name: …, description: …)" };
  const fm = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  if (typeof fm.name !== "string") return { ok: false, problem: 'its frontmatter needs "name" (a string)' };
  if (typeof fm.description !== "string" || fm.description.trim() === "")
    return { ok: false, problem: 'its frontmatter needs "description" (a non-empty string)' };
  return { ok: true, data: fm };
}

/**
 * Checks a skill name against the Agent Skills naming rules: 1–64 characters, lowercase letters, digits and
 * hyphens, no leading, trailing or consecutive hyphen.
 * @returns undefined when it passes, else the rule it breaks.
 */
export function nameProblem(name: string): string | undefined {
  if (name.length < 1 || name.length > 64) return "a skill name has 1 to 64 characters";
  if (!/^[a-z0-9-]+$/.test(name)) return "a skill name has only lowercase letters, digits and hyphens";
  if (name.startsWith("-") || name.endsWith("-") || name.includes("--"))
    return "a skill name has no leading, trailing or double hyphen";
  return undefined;
}
