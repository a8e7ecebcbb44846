/** @module The content keys of the server options (`resources`, `prompts`): their shape, merged into the server options' (src/shared/server-options.ts). */
import type { Resource, ResourceTemplate } from "./resource.ts";
import type { Prompt } from "./prompt.ts";
import type { ContentProvider } from "./provider.ts";

/** What `serve()` takes for content; nested arrays are flattened. */
export interface ContentOptions {
  /** Resources and templates; a {@link ContentProvider} (e.g. `gateway.content`) here serves its resources and prompts too. */
  readonly resources?: readonly (
    Resource | ResourceTemplate | ContentProvider | readonly (Resource | ResourceTemplate | ContentProvider)[]
  )[];
  /** Prompts; a {@link ContentProvider} may be given here as well (it counts once). */
  readonly prompts?: readonly (Prompt | ContentProvider | readonly (Prompt | ContentProvider)[])[];
}

declare module "../shared/server-options.ts" {
  /** The content keys of the server options: `resources` and `prompts` (src/shared/server-options.ts). */
  interface ServerOptions extends ContentOptions {}
}
