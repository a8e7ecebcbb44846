/** @module Validation problems as `path: message` lines, one wording for valibot and Ajv (tools, content and asks alike): shared (src/shared/), imports nothing of ours. */
import type * as v from "valibot";

/**
 * One valibot issue as `path: message` (`(root)` when the issue is about the whole value); valibot's
 * default "Invalid key" messages become `required` and `unexpected key (not in the schema)`.
 * @param issue - a valibot issue.
 * @returns the line.
 */
export function issueLine(issue: v.BaseIssue<unknown>): string {
  const path = issue.path?.map((p) => p.key).join(".") || "(root)";
  // valibot's default "Invalid key" messages, said plainly (a custom message is kept as written).
  if (issue.message.startsWith("Invalid key:")) {
    if (issue.expected === "never") return `${path}: unexpected key (not in the schema)`;
    if (issue.received === "undefined") return `${path}: required`;
  }
  return `${path}: ${issue.message}`;
}

/** The fields of an Ajv error the lines are made from. */
export interface AjvError {
  instancePath: string;
  keyword: string;
  params: { additionalProperty?: string; missingProperty?: string };
  message?: string;
}

/** One Ajv error as `path: message`, worded like {@link issueLine} for missing and unexpected keys. */
export function ajvLine(e: AjvError): string {
  const path = e.instancePath.slice(1).replaceAll("/", ".");
  const at = (key: string) => (path ? `${path}.${key}` : key);
  if (e.keyword === "required" && e.params.missingProperty !== undefined)
    return `${at(e.params.missingProperty)}: required`;
  if (e.keyword === "additionalProperties" && e.params.additionalProperty !== undefined)
    return `${at(e.params.additionalProperty)}: unexpected key (not in the schema)`;
  return `${path || "(root)"}: ${e.message ?? "is invalid"}`;
}
