/** @module What a server's entry loads at start: the modules and minified bytes reachable through static imports, and the whole bundle (scripts/bench-startup.ts). */
import { leaveOutScanYaml } from "../../src/cli/leave-out.ts";

/** The figures of one entry, from Bun.build's metafile (minified, code splitting: an `import()` is its own chunk). */
export interface Footprint {
  /** Modules in the chunks a start loads (the entry chunk and those it imports statically). */
  startModules: number;
  /** Their minified bytes. */
  startBytes: number;
  /** Modules in the whole bundle (every chunk, lazy ones too). */
  bundleModules: number;
  /** Its minified bytes. */
  bundleBytes: number;
  /** The packages (node_modules folders) in the start chunks, with their module counts, most first. */
  startPackages: [string, number][];
}

type Output = {
  bytes: number;
  inputs: Record<string, unknown>;
  imports?: { path: string; kind: string; external?: boolean }[];
  entryPoint?: string;
};

/**
 * Bundles `entry` as `mcpbin build` does (target bun, minified, split) into `outdir` and follows the static imports
 * from the entry chunk.
 * @param entry - the server's source file.
 * @param outdir - a scratch folder for the chunks.
 */
export async function footprint(entry: string, outdir: string): Promise<Footprint> {
  const r = await Bun.build({
    entrypoints: [entry],
    target: "bun",
    minify: true,
    splitting: true,
    outdir,
    metafile: true,
    plugins: [leaveOutScanYaml], // as mcpbin build bundles it (src/cli/build.ts)
  });
  if (!r.success) throw new Error(`bundling ${entry} failed: ${r.logs.join("\n")}`);
  const outs = (r as unknown as { metafile: { outputs: Record<string, Output> } }).metafile.outputs;
  const byBase = new Map(Object.keys(outs).map((k) => [k.slice(k.lastIndexOf("/") + 1), k]));
  const seen = new Set<string>();
  // `import()` targets are entry points of their own chunks too: start from the one of `entry`.
  const name = entry.slice(entry.lastIndexOf("/") + 1);
  const stack = Object.keys(outs).filter((k) => outs[k]!.entryPoint?.endsWith(`/${name}`));
  if (stack.length !== 1) throw new Error(`no single chunk of ${entry} in the metafile`);
  while (stack.length) {
    const k = stack.pop()!;
    if (seen.has(k)) continue;
    seen.add(k);
    for (const i of outs[k]!.imports ?? []) {
      if (i.kind === "dynamic-import" || i.external) continue;
      const next = byBase.get(i.path.slice(i.path.lastIndexOf("/") + 1));
      if (next) stack.push(next);
    }
  }
  const sum = (keys: Iterable<string>) => {
    const mods = new Set<string>();
    let bytes = 0;
    for (const k of keys) {
      bytes += outs[k]!.bytes;
      for (const i of Object.keys(outs[k]!.inputs)) mods.add(i);
    }
    return { mods, bytes };
  };
  const start = sum(seen);
  const all = sum(Object.keys(outs));
  const packages = new Map<string, number>();
  for (const m of start.mods) {
    const at = m.lastIndexOf("node_modules/");
    if (at < 0) continue;
    const rest = m.slice(at + "node_modules/".length).split("/");
    const name = rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
    packages.set(name, (packages.get(name) ?? 0) + 1);
  }
  return {
    startModules: start.mods.size,
    startBytes: start.bytes,
    bundleModules: all.mods.size,
    bundleBytes: all.bytes,
    startPackages: [...packages].sort((a, b) => b[1] - a[1]),
  };
}
