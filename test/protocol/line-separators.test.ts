// U+2028 and U+2029 leave the server escaped: a tool's text holding them (pasted web text often does) reaches a
// client whose line reader splits there too (Bun's node:readline, Python's str.splitlines) as one whole message,
// over stdio, and the text it parses is the tool's, character for character.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { BUN, ROOT } from "../helpers/proc.ts";

setDefaultTimeout(60_000);
const TEXT = "first\u2028second\u2029third";

test("U+2028 and U+2029 in a tool's text and structured content: every line a readline client reads is whole JSON", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-separators-"));
  const server = join(dir, "server.ts");
  writeFileSync(
    server,
    `import * as v from "valibot";
import { serve, tool } from ${JSON.stringify(join(ROOT, "src/index.ts"))};
const pasted = tool({ name: "pasted", description: "Pasted text", output: v.object({ t: v.string() }), run: () => ({ t: ${JSON.stringify(TEXT)} }) });
const plain = tool({ name: "plain", description: "Plain text", run: () => ${JSON.stringify(TEXT)} });
await serve({ name: "s", version: "1.0.0", tools: [pasted, plain] });
`,
  );
  const p = Bun.spawn([BUN, server], { stdin: "pipe", stdout: "pipe", stderr: "ignore", cwd: ROOT });
  try {
    const lines: string[] = [];
    const rl = createInterface({ input: Readable.fromWeb(p.stdout as never) });
    const three = new Promise<void>((done) =>
      rl.on("line", (l) => {
        lines.push(l);
        if (lines.length === 3) done();
      }),
    );
    p.stdin.write(
      [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"pasted","arguments":{}}}',
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"plain","arguments":{}}}',
      ].join("\n") + "\n",
    );
    p.stdin.flush();
    await three;
    const byId = Object.fromEntries(lines.map((l) => JSON.parse(l)).map((m) => [m.id, m.result]));
    expect(byId[2].structuredContent).toEqual({ t: TEXT });
    expect(JSON.parse(byId[2].content[0].text)).toEqual({ t: TEXT });
    expect(byId[3].content).toEqual([{ type: "text", text: TEXT }]);
    rl.close();
  } finally {
    p.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
