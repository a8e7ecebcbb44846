// A server on serveStdio alone, without serve()'s 200 ms exit backstop: it ends only once nothing holds the event loop.
import * as v from "valibot";
import { tool } from "../../src/index.ts";
import { Registry } from "../../src/server/registry.ts";
import { serveStdio } from "../../src/transport/stdio.ts";

const wait = tool({
  name: "wait",
  description: "Waits ms milliseconds, honouring ctx.signal",
  input: v.object({ ms: v.number() }),
  run: ({ ms }, ctx) => {
    ctx.progress(0); // says it started, when the call carried a progressToken
    return new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => resolve(`waited ${ms}`), ms);
      ctx.signal.addEventListener("abort", () => (clearTimeout(t), reject(ctx.signal.reason)));
    });
  },
});

await serveStdio(new Registry({ name: "bare", version: "1.0.0", tools: [wait], shutdownGraceMs: 200 }));
process.stderr.write("bare: serveStdio resolved\n");
