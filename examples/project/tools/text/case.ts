// Case conversions: two named exports, each a tool.
import * as v from "valibot";
import { tool } from "mcpbin";
import { words } from "./_words.ts";

export const titleCase = tool({
  name: "title_case",
  title: "Title case",
  description: "Capitalize the first letter of every word.",
  input: v.object({ text: v.string() }),
  annotations: { readOnlyHint: true },
  run: ({ text }) =>
    words(text)
      .map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase())
      .join(" "),
});

export const snakeCase = tool({
  name: "snake_case",
  description: "Lowercase the words of a text and join them with '_'.",
  input: v.object({ text: v.string() }),
  annotations: { readOnlyHint: true },
  run: ({ text }) =>
    words(text)
      .map((w) => w.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ""))
      .filter(Boolean)
      .join("_"),
});
