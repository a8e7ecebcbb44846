/** @module The layout's rules (DESIGN "The layout and its rules") as dependency-cruiser `forbidden` rules, and the known exceptions still to fix. */
import type { IForbiddenRuleType } from "dependency-cruiser";

/** The capability folders: each registers its methods with the core (src/server/register.ts) instead of the core importing it. */
export const CAPABILITIES = ["tools", "content", "ask", "apps", "tasks", "skills", "sessions", "auth"];
const CAP = `^src/(${CAPABILITIES.join("|")})/`;

/** Every rule; `from`/`to` are paths relative to the repository. */
export const RULES: IForbiddenRuleType[] = [
  {
    name: "no-circular",
    comment: "No import cycle between files, type-only imports included.",
    severity: "error",
    from: {},
    to: { circular: true },
  },
  {
    name: "runtime-is-the-ground-floor",
    comment: "src/runtime/ imports nothing of ours outside itself.",
    severity: "error",
    from: { path: "^src/runtime/" },
    to: { path: "^src/", pathNot: "^src/runtime/" },
  },
  {
    name: "shared-is-a-leaf",
    comment: "The shared shapes (src/shared/) import only src/runtime/.",
    severity: "error",
    from: { path: "^src/shared/" },
    to: { path: "^src/", pathNot: "^src/(shared|runtime)/" },
  },
  {
    name: "protocol-knows-versions-only",
    comment: "src/protocol/ never imports a capability, the pipeline, a transport or the client.",
    severity: "error",
    from: { path: "^src/protocol/" },
    to: { path: `${CAP}|^src/(server|transport|client|serve)/` },
  },
  {
    name: "server-knows-no-capability",
    comment:
      "src/server/ (the core) never imports a transport, the client or a capability folder: capabilities register with it.",
    severity: "error",
    from: { path: "^src/server/" },
    to: { path: `${CAP}|^src/(transport|client|serve)/` },
  },
  {
    name: "shipped-code-imports-no-build-or-cli",
    comment:
      "Code that ships in an executable never imports build-time code (src/build/) or the CLI (src/cli/, src/preview/).",
    severity: "error",
    from: { path: "^src/", pathNot: "^src/(build|cli|preview)/" },
    to: { path: "^src/(build|cli|preview)/" },
  },
  {
    name: "build-does-not-import-cli",
    comment: "The CLI drives the build, not the other way round.",
    severity: "error",
    from: { path: "^src/build/" },
    to: { path: "^src/(cli|preview)/" },
  },
  {
    name: "definitions-reach-no-internals",
    comment:
      "The author's definitions (tool(), resource(), prompt(), app(), defineConfig(), elicitation()) never reach the pipeline or a transport, even through others.",
    severity: "error",
    from: { path: "^src/(tools/define|content/(resource|prompt)|apps/app|config/define|ask/elicit-schema)\\.ts$" },
    to: { path: "^src/(server|transport|serve|client)/", reachable: true },
  },
];

/**
 * Known exceptions, as `rule: from → to` (each one a place still to fix, issue 26). The test fails on any
 * violation not listed here: fix it (a capability registers through src/server/register.ts; a shape several layers
 * need goes to src/shared/), or, only when it cannot wait, add its line here with the reason beside it. It also
 * fails on a line that no longer occurs: a fixed exception leaves the list.
 */
export const KNOWN: readonly string[] = [];

/**
 * The folders still caught in one cycle (they import each other through some path); each fix above shrinks it. The
 * test fails when a folder joins the cycle, and when a listed folder is no longer in it.
 */
export const KNOWN_FOLDER_CYCLE: readonly string[] = [];
