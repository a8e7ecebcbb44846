// Framing cases B02, B03, B05, B07, B08 against the compiled fixture over real pipes: bytes in, whole JSON lines out.
import { beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { initLine, INITED } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";
import { assertAllJson, call, exitWithin, fixtureBin, killAfterEach, spawnFixture, textOf } from "./harness.ts";

killAfterEach();

const V = "2025-06-18";
const enc = new TextEncoder();

setDefaultTimeout(30_000); // bun 1.4.4 ignores bunfig's [test] timeout; these tests run real processes
beforeAll(async () => {
  await fixtureBin();
}, 60_000);

describe("B02 CRLF line endings", () => {
  test("CRLF input is answered and no CR byte ever reaches stdout", async () => {
    const p = await spawnFixture();
    p.write(`${initLine(V)}\r\n${INITED}\r\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\r\n`);
    assertValidResponse(V, "initialize", await p.response(1));
    assertValidResponse(V, "tools/list", await p.response(2));
    // The whole kind: a CR inside a payload is escaped, and a bare CR before LF is stripped on every line.
    p.write(`${JSON.stringify(call(3, "echo", { text: "a\r\nb\r" }))}\r\n`);
    const r3 = await p.response(3);
    assertValidResponse(V, "tools/call", r3);
    expect(textOf(r3)).toBe("a\r\nb\r");
    p.write('{"jsonrpc":"2.0","id":4,"method":"ping"}\r\r\n');
    expect((await p.response(4)).result).toEqual({});
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
    expect(p.rawStdout.includes(0x0d)).toBe(false);
    expect(p.lines.length).toBe(4);
    assertAllJson(p);
  });
});

describe("B03 multi-byte UTF-8 split across reads", () => {
  test("a character cut between writes, and a line written one byte at a time, arrive intact", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    const text = "a—b🎉c";
    const line2 = enc.encode(JSON.stringify(call(2, "echo", { text })) + "\n");
    const cut = line2.indexOf(0x9f, line2.indexOf(0xf0)) + 1; // after F0 9F of 🎉
    expect([line2[cut - 2], line2[cut - 1]]).toEqual([0xf0, 0x9f]);
    p.write(line2.subarray(0, cut));
    await Bun.sleep(50);
    p.write(line2.subarray(cut));
    const r2 = await p.response(2);
    assertValidResponse(V, "tools/call", r2);
    expect(textOf(r2)).toBe(text);

    const line3 = enc.encode(JSON.stringify(call(3, "echo", { text })) + "\n");
    for (let i = 0; i < line3.length; i++) {
      p.write(line3.subarray(i, i + 1));
      await Bun.sleep(1);
    }
    const r3 = await p.response(3);
    assertValidResponse(V, "tools/call", r3);
    expect(textOf(r3)).toBe(text);
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
    expect(p.lines.join("\n")).not.toContain("\uFFFD");
    expect(new TextDecoder().decode(p.rawStdout)).not.toContain("\uFFFD");
  });
});

describe("B05 byte-order mark before the first message", () => {
  test("a BOM at stream start is dropped, and so is one at the start of any later line", async () => {
    const p = await spawnFixture();
    p.write(new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(initLine(V) + "\n")]));
    assertValidResponse(V, "initialize", await p.response(1));
    p.send(INITED);
    p.send('{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
    assertValidResponse(V, "tools/list", await p.response(2));
    p.write(new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('{"jsonrpc":"2.0","id":3,"method":"ping"}\n')]));
    expect((await p.response(3)).result).toEqual({});
    // A BOM elsewhere is no whitespace JSON knows: a parse error, and the session goes on.
    p.send('{"jsonrpc":"2.0","id":4,\uFEFF"method":"ping"}');
    p.send('{"jsonrpc":"2.0","id":5,"method":"ping"}');
    expect((await p.response(5)).result).toEqual({});
    expect(p.messages.filter((m) => m.error?.code === -32700 && m.id === null).length).toBe(1);
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
  });
});

describe("B07 blank and whitespace-only lines", () => {
  test("blank lines produce nothing at all", async () => {
    const p = await spawnFixture();
    p.write(
      `\n   \t\n${initLine(V)}\n\n${INITED}\r\n\r\n \t \r\n\uFEFF\n\uFEFF \t\r\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n\n`,
    );
    assertValidResponse(V, "initialize", await p.response(1));
    assertValidResponse(V, "tools/list", await p.response(2));
    // BOM-only lines are blank lines too (the line reader drops a leading BOM): no -32700 before id 2.
    expect(p.messages.map((m) => m.id)).toEqual([1, 2]);
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
    expect(p.lines.length).toBe(2);
  });
});

describe("B08 a request line of several MiB arriving in small chunks", () => {
  test("5 MiB + é in 64 KiB writes, a 9 MiB line under the default cap, then one over it", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    const writeChunked = async (bytes: Uint8Array) => {
      for (let i = 0; i < bytes.length; i += 65536) {
        p.write(bytes.subarray(i, i + 65536));
        if ((i / 65536) % 16 === 0) await Bun.sleep(0);
      }
    };
    const text = "a".repeat(5_242_880) + "é";
    await writeChunked(enc.encode(JSON.stringify(call(2, "echo", { text })) + "\n"));
    p.send('{"jsonrpc":"2.0","id":3,"method":"ping"}');
    const r2 = await p.response(2, 10_000);
    expect(textOf(r2)).toBe(text);
    expect(textOf(r2).length).toBe(5_242_881);
    await p.response(3);
    expect(p.messages.findIndex((m) => m.id === 2)).toBeLessThan(p.messages.findIndex((m) => m.id === 3));

    // The cap is at least 8 MiB: a 9 MiB line is served (the padding is an extra key echo ignores).
    await writeChunked(
      enc.encode(JSON.stringify(call(4, "echo", { text: "nine", pad: "b".repeat(9 * 1024 * 1024) })) + "\n"),
    );
    expect(textOf(await p.response(4, 10_000))).toBe("nine");

    // Over the cap (16 MiB): one -32700 with id null, the reader skips to the next LF, later lines are served.
    await writeChunked(
      enc.encode(JSON.stringify(call(5, "echo", { text: "over", pad: "c".repeat(17 * 1024 * 1024) })) + "\n"),
    );
    p.send('{"jsonrpc":"2.0","id":6,"method":"ping"}');
    expect((await p.response(6, 10_000)).result).toEqual({});
    expect(p.messages.some((m) => m.id === 5)).toBe(false);
    const parseErrors = p.messages.filter((m) => m.error?.code === -32700);
    expect(parseErrors.length).toBe(1);
    expect(parseErrors[0]!.id).toBe(null);
    expect(parseErrors[0]!.error.message).toContain("maxLineBytes");
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
    assertAllJson(p);
  }, 30_000);

  test("a configured cap: each oversized line gets exactly one -32700, wherever the chunk boundaries fall", async () => {
    const p = await spawnFixture({ FIXTURE_MAX_LINE_BYTES: "1000" });
    await p.handshake(V);
    const long = JSON.stringify(call(2, "echo", { text: "z".repeat(5000) }));
    // Over the cap within one write, across many writes, and exactly at the cap boundary.
    p.write(long + "\n");
    for (let i = 0; i < long.length; i += 333) p.write(long.slice(i, i + 333));
    p.write("\n");
    const exact = JSON.stringify(
      call(3, "echo", { text: "y".repeat(1000 - JSON.stringify(call(3, "echo", { text: "" })).length) }),
    );
    expect(exact.length).toBe(1000);
    p.send(exact);
    p.send(exact.replace('"id":3', '"id":33') + " ");
    p.send('{"jsonrpc":"2.0","id":4,"method":"ping"}');
    await p.response(4);
    expect(p.messages.filter((m) => m.error?.code === -32700 && m.id === null).length).toBe(3);
    expect(textOf(await p.response(3)).length).toBeGreaterThan(900);
    expect(p.messages.some((m) => m.id === 2 || m.id === 33)).toBe(false);
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
  });
});
