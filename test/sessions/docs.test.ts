// docs/sessions.md shows the examples the other session tests run (apps, workers): each marked block is the file, as it is.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./harness.ts";

const doc = readFileSync(join(ROOT, "docs/sessions.md"), "utf8");
const blocks = [...doc.matchAll(/<!-- example: (\S+) -->\n```\w+\n([\s\S]*?)```/g)].map((m) => ({
  file: m[1]!,
  body: m[2]!,
}));

test("docs/sessions.md shows the Bun.serve app, the Node app, the server and the worker session", () => {
  expect(blocks.map((b) => b.file)).toEqual([
    "examples/sessions/bun-app.ts",
    "examples/sessions/node-app.mjs",
    "examples/sessions/server.ts",
    "examples/sessions/worker.ts",
    "examples/sessions/worker-server.ts",
  ]);
});

for (const b of blocks) {
  test(`docs/sessions.md's ${b.file} is the file the suite runs`, () => {
    expect(b.body).toBe(readFileSync(join(ROOT, b.file), "utf8"));
  });
}

test("the README links the guide", () => {
  expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("(docs/sessions.md)");
});
