/** @module A server's live sessions (`serve({ sessions })`): finds them in the per-user directory, keeps one authenticated connection to each, chooses one, and offers its tools beside the server's own with list_sessions and select_session. */
import { readdirSync, unlinkSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import type { Registry } from "../server/registry.ts";
import type { Tool } from "../tools/types.ts";
import { connect } from "../client/connect.ts";
import { logName } from "../runtime/log-name.ts";
import { endpoint, openSessionDir, sessionDirPath, type SessionDir } from "./dir.ts";
import { readInfo, type SessionInfo } from "./info.ts";
import { sessionTransport } from "./link.ts";
import { Gate } from "./gate.ts";
import { sessionLabel, sessionTools, type Connected } from "./forward.ts";
import { controlTools } from "./control.ts";
import { realCwd } from "./session.ts";
import { resolveSessions, type SessionsOptions } from "./options.ts";
import { startWorkers, type Workers } from "./workers.ts";

/** Which session is chosen and why (what list_sessions says). */
export interface Choice {
  readonly chosen: Connected | undefined;
  readonly why: string;
}

/** A server's sessions, attached to its registry. */
export interface Sessions {
  /** Opens the directory, connects to the sessions there and starts watching it; `http`: the server serves over HTTP. */
  start(how: { readonly http: boolean }): Promise<void>;
  /** Every session connected now, by id. */
  readonly connected: ReadonlyMap<string, Connected>;
  /** The session whose tools are offered now, and why. */
  choice(): Choice;
  /** Selects a session by id or name (undefined: back to the automatic choice); the session, or a sentence why not. */
  select(which: string | undefined): Connected | string | undefined;
  /** A sentence when the directory could not be used. */
  readonly problem: string | undefined;
  /** Ends the connections (never the sessions) and the worker sessions this server started. */
  close(): Promise<void>;
}

/**
 * Attaches live sessions to a registry. Nothing happens before `start()`.
 * @param registry - the server's.
 * @param given - the `sessions` option.
 * @returns the sessions.
 */
export function attachSessions(registry: Registry, given: SessionsOptions | true): Sessions {
  const o = resolveSessions(given, process.env);
  const connected = new Map<string, Connected>();
  const dialling = new Set<string>();
  const warned = new Set<string>();
  const cwd = realCwd();
  const own = new Set(registry.tools.keys());
  let dir: SessionDir | undefined;
  let problem: string | undefined;
  let http = false;
  let selected: string | undefined;
  let offered: { id: string | undefined; tools: Tool[] } = { id: undefined, tools: [] };
  let watcher: FSWatcher | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let workers: Workers | undefined;
  let closing = false;
  const log = (text: string) => process.stderr.write(`${logName()}: sessions: ${text}\n`);

  const choice = (): Choice => {
    const live = [...connected.values()].filter((s) => s.info.worker === undefined);
    const sel = selected === undefined ? undefined : connected.get(selected);
    if (sel) return { chosen: sel, why: "selected with select_session" };
    const here = live.filter((s) => s.info.cwd === cwd);
    if (here.length === 1) return { chosen: here[0], why: "its working directory is this server's" };
    if (here.length === 0 && live.length === 1) return { chosen: live[0], why: "the only session running" };
    if (here.length > 1)
      return { chosen: undefined, why: `${here.length} sessions run in this folder: choose one with select_session` };
    if (live.length > 1)
      return {
        chosen: undefined,
        why: `${live.length} sessions run, none in this folder: choose one with select_session`,
      };
    return { chosen: undefined, why: problem ?? "no session is running: the server offers its own tools only" };
  };

  const control = controlTools({
    choice,
    select: (w) => select(w),
    get connected() {
      return connected;
    },
    get problem() {
      return problem;
    },
    dir: () => dir?.path,
  });
  for (const t of control) own.add(t.name);

  /** Offers the chosen session's tools (and tells the clients, even when only the list of sessions changed). */
  const apply = (): void => {
    if (closing) return;
    const { chosen } = choice();
    const keep = (d: { name?: unknown }) => d.name !== "evaluate" || !http || o.evalOverHttp;
    const pool = workers?.tools(own, keep) ?? [];
    const reserved = new Set([...own, ...pool.map((t) => t.name)]);
    // The pool's tools are offered whichever session is chosen; a chosen session's names give way to them.
    const tools = [
      ...pool,
      ...(chosen
        ? sessionTools(
            chosen.defs,
            chosen.info.name,
            () => (connected.get(chosen.info.id) === chosen ? chosen : undefined),
            reserved,
            o.timeoutMs,
            keep,
          )
        : []),
    ];
    const removed = offered.tools.map((t) => t.name).filter((n) => !tools.some((t) => t.name === n));
    offered = { id: chosen?.info.id, tools };
    registry.changeTools([...control, ...tools], removed);
  };

  const select = (which: string | undefined): Connected | string | undefined => {
    if (which === undefined || which === "") {
      selected = undefined;
      apply();
      return undefined;
    }
    const all = [...connected.values()].filter((s) => s.info.worker === undefined);
    const byId = all.find((s) => s.info.id === which);
    const byName = all.filter((s) => s.info.name === which);
    const s = byId ?? (byName.length === 1 ? byName[0] : undefined);
    if (!s)
      return byName.length > 1
        ? `${byName.length} sessions are named "${which}": give the id (list_sessions shows it)`
        : `no session has the id or name "${which}" (list_sessions shows those running)`;
    selected = s.info.id;
    apply();
    return s;
  };

  const reclaim = (id: string, why: string): void => {
    for (const f of [`${id}.sock`, `${id}.json`]) {
      try {
        unlinkSync(join(dir!.path, f));
      } catch {}
    }
    log(`removed the stale session ${id} (${why})`);
  };

  const dialOne = async (info: SessionInfo): Promise<void> => {
    dialling.add(info.id);
    try {
      const client = await connect(
        sessionTransport(endpoint(dir!.path, info.id), dir!.key, `session ${sessionLabel(info)}`),
        {
          era: "legacy",
          timeoutMs: 0,
          clientInfo: { name: registry.options.name, version: registry.options.version },
          capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
        },
      );
      if (closing) return void client.close();
      // Its log messages come to this server at every level; each call's ctx.log passes on what our client asked for.
      await client.request("logging/setLevel", { level: "debug" }).catch(() => {});
      const defs = await client.listTools();
      const s: Connected = { info, client, gate: new Gate(o.concurrency, o.queue, sessionLabel(info)), defs };
      connected.set(info.id, s);
      void client.closed.then(() => gone(s));
      if (info.worker !== undefined) workers?.joined(s);
      apply();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException)?.code;
      if (code === "ENOENT" || code === "ECONNREFUSED" || /ECONNREFUSED|ENOENT/.test(String((e as Error)?.message)))
        reclaim(info.id, "nothing listens on its socket");
      else if (!warned.has(info.id)) {
        warned.add(info.id);
        log(`cannot reach session ${sessionLabel(info)}: ${(e as Error)?.message ?? e}`);
      }
    } finally {
      dialling.delete(info.id);
    }
  };

  const gone = (s: Connected): void => {
    if (connected.get(s.info.id) !== s) return;
    connected.delete(s.info.id);
    s.gate.failWaiting(
      new Error(
        `session ${sessionLabel(s.info)} went away (the program ended or closed its session). Start it again, then call list_sessions`,
      ),
    );
    if (selected === s.info.id) selected = undefined;
    if (s.info.worker !== undefined) workers?.left(s);
    apply();
  };

  /** Dials every session of the directory not yet connected; the dials, to wait for at start. */
  const scan = (): Promise<void>[] => {
    const dials: Promise<void>[] = [];
    if (!dir || closing) return dials;
    let names: string[];
    try {
      names = readdirSync(dir.path);
    } catch (e) {
      log(`cannot read ${dir.path}: ${(e as Error).message}`);
      return dials;
    }
    for (const n of names) {
      if (!n.endsWith(".json")) continue;
      const id = n.slice(0, -5);
      if (connected.has(id) || dialling.has(id)) continue;
      const r = readInfo(join(dir.path, n), dir.key);
      if (r === undefined) continue;
      if ("problem" in r) {
        if (!warned.has(n)) log(`ignored ${n}: ${r.problem}`);
        warned.add(n);
        continue;
      }
      if (r.info.worker !== undefined && r.info.worker !== workers?.tag) continue;
      dials.push(dialOne(r.info));
    }
    return dials;
  };

  return {
    connected,
    choice,
    select,
    get problem() {
      return problem;
    },
    async start(how) {
      http = how.http;
      try {
        dir = openSessionDir(o.dir ?? sessionDirPath());
      } catch (e) {
        problem = `the session directory cannot be used: ${(e as Error).message}`;
        log(problem);
        apply();
        return;
      }
      if (o.workers)
        workers = startWorkers(
          o.workers,
          dir.path,
          o.timeoutMs,
          (text) => log(text),
          () => apply(),
        );
      apply();
      // The sessions running now are in the first tools/list: the start waits for their handshakes (at most 2 s).
      const first = scan();
      try {
        watcher = watch(dir.path, () => void scan());
        watcher.on("error", () => {});
        watcher.unref();
      } catch {}
      // fs.watch can miss events (and is absent on some file systems): a slow poll backs it up.
      poll = setInterval(scan, 1_000);
      poll.unref();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.allSettled(first), new Promise((r) => (timer = setTimeout(r, 2_000)))]);
      clearTimeout(timer);
    },
    async close() {
      closing = true;
      watcher?.close();
      clearInterval(poll);
      await Promise.all([...connected.values()].map((s) => s.client.close().catch(() => {})));
      await workers?.close();
    },
  };
}
