/** @module What a server's executable is made of: the same entry compiled without source maps, and with every `import()` target left out, beside the release build (scripts/bench-startup.ts). */
import { statSync } from "node:fs";
import { compileConfig } from "../../src/cli/build.ts";

/** Executable sizes in bytes, each compiled from the same entry with mcpbin's release flags but one. */
export interface ExeParts {
  /** As `compile()` makes it: bytecode, linked source maps, every chunk. */
  release: number;
  /** Without the embedded source maps. */
  noSourceMap: number;
  /** Every `import()` target replaced by an empty module: what the executable would be were the code behind options left out. */
  noLazy: number;
  /** That, without bytecode (source only). */
  noLazyNoBytecode: number;
}

/** Resolves each `import()` to an empty module (measurement only: the executable cannot run what it leaves out). */
const leaveOutLazy: Bun.BunPlugin = {
  name: "leave-out-lazy",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (a) =>
      a.kind === "dynamic-import" ? { path: a.path, namespace: "absent" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "absent" }, () => ({ contents: "export default {};", loader: "js" }));
  },
};

/**
 * Compiles `entry` four times into `dir` (the raw compile: no mcpbin entry wrapper, no bytecode-order profile).
 * @param entry - the server's source file.
 * @param dir - a scratch folder.
 * @throws Error when Bun's compiler fails.
 */
export async function exeParts(entry: string, dir: string): Promise<ExeParts> {
  const one = async (label: string, patch: (c: Bun.BuildConfig) => Bun.BuildConfig): Promise<number> => {
    const out = `${dir}/parts-${label}`;
    const r = await Bun.build(patch(compileConfig({ entry, smol: false, stdoutGuard: false }, out)));
    if (!r.success) throw new Error(`compiling ${entry} (${label}) failed: ${r.logs.join("\n")}`);
    return statSync(out).size;
  };
  return {
    release: await one("release", (c) => c),
    noSourceMap: await one("no-source-map", (c) => ({ ...c, sourcemap: "none" })),
    noLazy: await one("no-lazy", (c) => ({ ...c, plugins: [...(c.plugins ?? []), leaveOutLazy] })),
    noLazyNoBytecode: await one("no-lazy-no-bytecode", (c) => ({
      ...c,
      bytecode: false,
      plugins: [...(c.plugins ?? []), leaveOutLazy],
    })),
  };
}
