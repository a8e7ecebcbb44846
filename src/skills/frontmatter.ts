/** @module A SKILL.md's YAML frontmatter: found, parsed, and its name checked against the Agent Skills naming rules. */
/** A YAML parser: yaml's `parse`. */
export type YamlParse = (text: string, options: { prettyErrors: boolean }) => unknown;

/**
 * yaml's parser, required on first use (a server's start, which imports this module with the registry, never evaluates
 * it). An executable does not embed it for the skills scan: it reads the skills its build recorded, and `mcpbin build`
 * resolves this `require` to a module that says so (src/cli/leave-out.ts).
 * @throws Error when the executable left yaml out: a skills path its build did not record.
 */
function bundledYaml(): YamlParse {
  const yaml = require("yaml") as typeof import("yaml") & { readonly absent?: string };
  if (yaml.absent !== undefined) throw new Error(yaml.absent);
  return (text, options) => yaml.parse(text, options);
}

/** What a SKILL.md's frontmatter gave, or why it gave nothing usable. */
export type Frontmatter =
  { readonly ok: true; readonly data: Record<string, unknown> } | { readonly ok: false; readonly problem: string };

/**
 * Reads the YAML frontmatter at the start of a SKILL.md (a first line `---`, the YAML, a line `---`) and checks that it
 * has a name and a description.
 * @param text - the file's text (UTF-8 decoded).
 * @param parse - the YAML parser; default yaml, required on first use.
 * @returns the frontmatter as a JSON object (the YAML rendered verbatim), or every problem in one phrase.
 */
export function parseFrontmatter(text: string, parse?: YamlParse): Frontmatter {
  const fm = readFrontmatter(text, parse);
  if (!fm.ok) return fm;
  const problems = frontmatterProblems(fm.data);
  return problems.length ? { ok: false, problem: problems.join("; ") } : fm;
}

/**
 * Reads the YAML frontmatter at the start of a SKILL.md, without checking its keys.
 * @param text - the file's text (UTF-8 decoded).
 * @param parse - the YAML parser; default yaml, required on first use.
 * @returns the frontmatter as a JSON object, or why there is none in one phrase.
 */
export function readFrontmatter(text: string, parse?: YamlParse): Frontmatter {
  const body = text.startsWith("\ufeff") ? text.slice(1) : text;
  const m =
    /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(body) ??
    /^---[ \t]*\r?\n()---[ \t]*(?:\r?\n|$)/.exec(body);
  if (!m) return { ok: false, problem: "SKILL.md must begin with YAML frontmatter between two --- lines" };
  const yaml = parse ?? bundledYaml();
  let data: unknown;
  try {
    data = yaml(m[1]!, { prettyErrors: false });
  } catch (e) {
    return { ok: false, problem: `its frontmatter is not valid YAML (${(e as Error).message.split("\n")[0]})` };
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    return { ok: false, problem: "its frontmatter must be a YAML mapping (name: …, description: …)" };
  return { ok: true, data: JSON.parse(JSON.stringify(data)) as Record<string, unknown> };
}

/**
 * What is wrong with a frontmatter's name and description, the most useful first: the name before the description,
 * and, given the skill's folder, a name that must equal it before the naming rules (a name equal to a good folder name
 * follows them), so that one fix settles the first problem.
 * @param fm - the frontmatter.
 * @param folder - the skill's folder name, when known (a served skill's name must equal it).
 * @returns the problems as phrases; empty when there is none.
 */
export function frontmatterProblems(fm: Record<string, unknown>, folder?: string): string[] {
  const out: string[] = [];
  const name = fm.name;
  const goodFolder = folder !== undefined && nameProblem(folder) === undefined;
  if (typeof name !== "string") {
    out.push(`its frontmatter needs "name" (a string${goodFolder ? `: name: ${folder}, its folder's name` : ""})`);
  } else if (folder !== undefined && name !== folder && goodFolder) {
    const also = nameProblem(name) === undefined ? "rename one of them" : `set name: ${folder}`;
    out.push(`its name ${JSON.stringify(name)} must equal its folder's name "${folder}": ${also}`);
  } else {
    const bad = nameProblem(name);
    const fix = folder === undefined ? "" : "; rename the folder and the name"; // here the folder breaks a rule too
    const suggestion = suggestName(name);
    if (bad) out.push(`name ${JSON.stringify(name)}: ${bad}${fix}${suggestion ? ` (e.g. ${suggestion})` : ""}`);
    else if (folder !== undefined && name !== folder)
      out.push(
        `its name ${JSON.stringify(name)} must equal its folder's name "${folder}": rename the folder to "${name}"`,
      );
  }
  if (typeof fm.description !== "string" || fm.description.trim() === "")
    out.push('its frontmatter needs "description" (a non-empty string)');
  return out;
}

/** A name that follows the rules, made from one that does not (`Release Notes` → `release-notes`), if any. */
function suggestName(name: string): string | undefined {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");
  return s !== "" && s !== name ? s : undefined;
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
