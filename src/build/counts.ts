/** @module What a server serves, counted for the build's summary line: tools, resources (templates included), prompts, upstream servers. */
import { isResource, isResourceTemplate } from "../content/resource.ts";
import { isPrompt } from "../content/prompt.ts";
import type { ServerOptions } from "../shared/server-options.ts";
import { skillsOption } from "../skills/skill-set.ts";

/** The counts of one server's own definitions (an upstream's tools are known only when it runs). */
export interface ServedCounts {
  readonly tools: number;
  /** Resources and resource templates (not the `ui://` resources of apps). */
  readonly resources: number;
  readonly prompts: number;
  /** Upstream servers (`upstreams`), disabled ones left out. */
  readonly upstreams: number;
  /** Skills (`skills`: the skills extension), their files embedded. */
  readonly skills?: number;
}

/**
 * Counts what server options define.
 * @param options - the options serve() gets (tools and content may nest arrays).
 */
export function countsOf(options: ServerOptions): ServedCounts {
  const flat = (xs: readonly unknown[] | undefined) => ((xs ?? []) as unknown[]).flat(Infinity);
  const upstreams = Object.values((options.upstreams ?? {}) as Record<string, { disabled?: unknown }>).filter(
    (u) => u?.disabled !== true,
  ).length;
  return {
    tools: flat(options.tools).length,
    resources: flat(options.resources).filter((r) => isResource(r) || isResourceTemplate(r)).length,
    prompts: flat(options.prompts).filter(isPrompt).length,
    upstreams,
    skills: skillsOption(options.skills)?.entries.length ?? 0,
  };
}

/**
 * The summary `mcpbin build` prints: `3 tools, 2 resources, 1 prompt`, each kind only when there is one (tools always,
 * unless the server only fronts upstream servers), and `from N upstream servers` for a hub.
 * @param c - the counts.
 */
export function countsLine(c: ServedCounts): string {
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;
  const parts = [
    ...(c.tools > 0 || c.upstreams === 0 ? [n(c.tools, "tool")] : []),
    ...(c.resources > 0 ? [n(c.resources, "resource")] : []),
    ...(c.prompts > 0 ? [n(c.prompts, "prompt")] : []),
    ...(c.skills ? [n(c.skills, "skill")] : []),
  ];
  const hub =
    c.upstreams > 0 ? n(c.upstreams, "upstream server") + " (their tools are listed when the executable starts)" : "";
  return parts.length > 0 && hub ? `${parts.join(", ")}, and ${hub}` : parts.join(", ") || hub;
}
