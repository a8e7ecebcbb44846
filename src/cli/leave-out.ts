/** @module What `mcpbin build` leaves out of an executable because the executable never runs it: yaml for the skills scan (an executable reads the skills manifest its build recorded). */

/** What the skills scan finds instead of yaml in an executable (src/skills/frontmatter.ts reads `absent`). */
const SCAN_YAML_ABSENT =
  "this executable reads the skills its build recorded and cannot scan a skills folder at run time: " +
  "give serve() the skills paths it is built with (a path that differs at run time is not embedded)";

/**
 * Resolves the skills scan's `require("yaml")` (src/skills/frontmatter.ts) to a module that names why it is absent,
 * so the 72 modules of yaml are neither in the start chunk nor read at start. The client's verification of a skill's
 * files imports yaml with `import()`, which this leaves alone (its own chunk).
 */
export const leaveOutScanYaml: Bun.BunPlugin = {
  name: "mcpbin-leave-out-scan-yaml",
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, (a) =>
      a.kind === "require-call" && /[\\/]skills[\\/]frontmatter\.ts$/.test(a.importer)
        ? { path: "yaml", namespace: "mcpbin-absent" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "mcpbin-absent" }, () => ({
      contents: `export const absent = ${JSON.stringify(SCAN_YAML_ABSENT)};`,
      loader: "js",
    }));
  },
};
