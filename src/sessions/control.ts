/** @module The two tools a server with sessions always offers: list_sessions (which are running, which is chosen and why) and select_session (choose one, or go back to the automatic choice). */
import { tool } from "../tools/define.ts";
import { textContent } from "../shared/content-blocks.ts";
import { toolResult } from "../shared/result.ts";
import type { Tool } from "../tools/types.ts";
import type { Connected } from "./forward.ts";

/** What the tools read of the server's sessions (src/sessions/attach.ts). */
export interface ControlView {
  choice(): { readonly chosen: Connected | undefined; readonly why: string };
  select(which: string | undefined): Connected | string | undefined;
  readonly connected: ReadonlyMap<string, Connected>;
  readonly problem: string | undefined;
  dir(): string | undefined;
}

/** One session as list_sessions shows it. */
function row(s: Connected, chosen: boolean) {
  return {
    id: s.info.id,
    name: s.info.name,
    pid: s.info.pid,
    cwd: s.info.cwd,
    runtime: s.info.runtime,
    started: s.info.started,
    tools: s.defs.map((d) => String(d.name)),
    chosen,
    ...(s.info.worker ? { worker: true } : {}),
  };
}

/** The listing as structured content and lines. */
function listing(view: ControlView) {
  const { chosen, why } = view.choice();
  const sessions = [...view.connected.values()].map((s) => row(s, s === chosen));
  const lines = sessions.map(
    (s) =>
      `${s.chosen ? "*" : "-"} ${s.name} (id ${s.id}, pid ${s.pid}, ${s.runtime}${s.worker ? ", worker" : ""}) in ${s.cwd}: ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}${s.tools.length ? ` (${s.tools.join(", ")})` : ""}`,
  );
  const head = chosen
    ? `Tools of session "${chosen.info.name}" (id ${chosen.info.id}) are offered: ${why}.`
    : `No session's tools are offered: ${why}.`;
  return {
    text: [head, ...(lines.length ? lines : ["(no session is running for this user)"])].join("\n"),
    structured: {
      chosen: chosen?.info.id ?? null,
      why,
      sessions,
      ...(view.problem ? { problem: view.problem } : {}),
      ...(view.dir() ? { dir: view.dir() } : {}),
    },
  };
}

/**
 * list_sessions and select_session, bound to a server's sessions.
 * @param view - the sessions.
 * @returns `[list_sessions, select_session]`.
 */
export function controlTools(view: ControlView): [Tool, Tool] {
  const list = tool({
    name: "list_sessions",
    description:
      "Lists the running programs (dev servers, REPLs, test runners) of this user that offer tools to this server, and which one's tools are offered now and why: " +
      "the one selected with select_session, else the one running in this server's folder, else the only one.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: () => {
      const l = listing(view);
      return toolResult({ content: [textContent(l.text)], structuredContent: l.structured });
    },
  }) as unknown as Tool;
  const select = tool({
    name: "select_session",
    description:
      "Chooses the running session whose tools this server offers, by its id or name (see list_sessions); without one, goes back to the automatic choice. The list of tools changes accordingly.",
    inputSchema: {
      type: "object",
      properties: {
        session: {
          type: "string",
          description: "The session's id or name; omit it to go back to the automatic choice.",
        },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (args) => {
      const which = (args as { session?: string }).session;
      const r = view.select(which);
      if (typeof r === "string") return toolResult({ content: [textContent(r)], isError: true });
      const l = listing(view);
      const head = r
        ? `Selected session "${r.info.name}" (id ${r.info.id}); its tools are offered now.`
        : "Back to the automatic choice.";
      return toolResult({ content: [textContent(`${head}\n${l.text}`)], structuredContent: l.structured });
    },
  }) as unknown as Tool;
  return [list, select];
}
