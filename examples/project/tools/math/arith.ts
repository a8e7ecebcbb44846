// Arithmetic: an array export of tools.
import * as v from "valibot";
import { tool } from "mcpbin";

const pair = v.object({ a: v.number(), b: v.number() });

export const arithmetic = [
  tool({ name: "add", description: "Add two numbers.", input: pair, run: ({ a, b }) => a + b }),
  tool({
    name: "divide",
    description: "Divide a by b.",
    input: pair,
    run: ({ a, b }) => {
      if (b === 0) throw new Error("division by zero");
      return a / b;
    },
  }),
];
