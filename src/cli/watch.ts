/** @module mcpbin dev --watch: serves a script or project from source in this process and reloads its tools when a file changes, keeping the connection. */
import { watch } from "node:fs";
import { dirname, sep } from "node:path";
import { createServer, registryOf } from "../serve/create-server.ts";
import { loadSource, type Source } from "./source.ts";
import type { Tool } from "../tools/types.ts";

/** How long after the last file event a reload starts, ms (an editor's save is several events). */
const SETTLE_MS = 150;

/**
 * Serves the source with a live tool set and watches its folder (recursively; not node_modules, dist
 * or dot-folders). After a change, the modules of the folder are evaluated afresh and the tools
 * replaced: clients stay connected and are told (`notifications/tools/list_changed`, legacy sessions;
 * `subscriptions/listen` streams in 2026-07-28), and stderr says what changed. A change that fails to
 * load keeps the last good tools and prints the error.
 * @param src - the script or config.
 * @returns resolves when the server stops (stdin closed, or HTTP drained).
 * @throws what loading the first time throws (the CLI prints it as one line).
 */
export async function devWatch(src: Source): Promise<void> {
  const first = await loadSource(src);
  const server = createServer({ ...first, listChanged: true });
  const registry = registryOf(server);
  const root = dirname(src.path);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reloads = 0;
  let running = false;
  let again = false;
  const reload = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      for (const key of Object.keys(require.cache)) {
        if (key.startsWith(root + sep) && !key.includes(`${sep}node_modules${sep}`)) delete require.cache[key];
      }
      let next: readonly Tool[];
      try {
        next = (await loadSource(src, ++reloads)).tools.flat() as Tool[];
      } catch (e) {
        process.stderr.write(
          `mcpbin: dev: reload failed, serving the last good tools: ${String((e as Error)?.message ?? e).split("\n")[0]}\n`,
        );
        return;
      }
      const change = registry.replaceTools(next);
      const said = [
        ...change.added.map((n) => `+${n}`),
        ...change.removed.map((n) => `-${n}`),
        ...change.changed.map((n) => `~${n}`),
      ];
      process.stderr.write(
        `mcpbin: dev: reloaded ${src.path.slice(root.length + 1)}: ${said.length ? said.join(" ") : "no tool changed"}\n`,
      );
    } finally {
      running = false;
      if (again) {
        again = false;
        void reload();
      }
    }
  };
  const watcher = watch(root, { recursive: true }, (_event, file) => {
    const f = String(file ?? "");
    if (f.split(/[\\/]/).some((part) => part === "node_modules" || part === "dist" || part.startsWith("."))) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => void reload(), SETTLE_MS);
  });
  process.stderr.write(`mcpbin: dev: watching ${root} for changes\n`);
  try {
    await server.serve();
  } finally {
    watcher.close();
    if (timer !== undefined) clearTimeout(timer);
  }
}
