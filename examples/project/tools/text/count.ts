// Word counting: the default export is a tool with structured output.
import * as v from "valibot";
import { tool } from "mcpbin";
import { words } from "./_words.ts";

export default tool({
  name: "word_count",
  description: "Count the words of a text, and how often each occurs.",
  input: v.object({ text: v.string(), top: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 3) }),
  output: v.object({ words: v.number(), top: v.array(v.object({ word: v.string(), count: v.number() })) }),
  run: ({ text, top }) => {
    const counts = new Map<string, number>();
    for (const w of words(text.toLowerCase())) counts.set(w, (counts.get(w) ?? 0) + 1);
    const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, top);
    return { words: words(text).length, top: ranked.map(([word, count]) => ({ word, count })) };
  },
});
