/** @module The asker of a tool called directly (`await myTool(args)`): there is no client, so every ask fails with a typed error. */
import { AskError } from "./errors.ts";
import type { Asker } from "./types.ts";

const fail = (what: string) => () =>
  Promise.reject(
    new AskError(
      "unsupported",
      `the client does not support ${what} (the tool was called directly, with no client; pass ctx.${what === "roots" ? "roots" : what === "sampling" ? "sample" : "elicit"} in the second argument to answer)`,
    ),
  );

/** Every ask rejects with AskError `unsupported`; `roots()` is `[]`. */
export const NO_CLIENT: Asker = {
  elicit: fail("elicitation") as Asker["elicit"],
  sample: fail("sampling"),
  roots: () => Promise.resolve([]),
  clientCapabilities: Object.freeze({}),
};
