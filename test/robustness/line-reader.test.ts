// The line reader gives the same lines whether a chunk holds many whole lines (decoded as one run) or arrives byte by byte.
import { expect, test } from "bun:test";
import { OVERSIZE, readLines } from "../../src/transport/line-reader.ts";

const enc = (s: string) => new TextEncoder().encode(s);

async function linesOf(chunks: Uint8Array[], max: number): Promise<(string | "OVERSIZE")[]> {
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (const x of chunks) c.enqueue(x);
      c.close();
    },
  });
  const out: (string | "OVERSIZE")[] = [];
  await readLines(stream, max, (l) => void out.push(l === OVERSIZE ? "OVERSIZE" : l));
  return out;
}

function cat(...parts: (string | number[])[]): Uint8Array {
  const bytes = parts.flatMap((p) => (typeof p === "string" ? [...enc(p)] : p));
  return new Uint8Array(bytes);
}

const BOM = [0xef, 0xbb, 0xbf];
const cases: [string, Uint8Array, number][] = [
  [
    "BOM at stream start and on later lines, CRLF, blank and whitespace lines",
    cat(BOM, BOM, "a\r\n", "\r\n", " \t\r\n", BOM, "b\n", BOM, "\n", "c\r\r\n", "d"),
    64,
  ],
  [
    "invalid UTF-8 cut by LF, multi-byte text, U+2028 inside a line",
    cat("x", [0xe2, 0x82], "\n", [0xf0, 0x9f], "\n", "é€😀\u2028y\n", [0xff], "\nz\n"),
    64,
  ],
  ["a line over the cap between short lines", cat("ab\n", "0123456789ABCDEF\n", "cd\n", "0123456789\n", "ef"), 10],
];

for (const [name, bytes, max] of cases) {
  test(`line reader: whole chunk = byte by byte: ${name}`, async () => {
    const whole = await linesOf([bytes], max);
    const bytewise = await linesOf(
      [...bytes].map((b) => new Uint8Array([b])),
      max,
    );
    const halves = await linesOf([bytes.subarray(0, 5), bytes.subarray(5)], max);
    expect(whole).toEqual(bytewise);
    expect(halves).toEqual(bytewise);
    expect(bytewise.length).toBeGreaterThan(2);
  });
}

test("line reader: expected lines of the first case (a BOM-only line is blank, so skipped: the server answers nothing to it)", async () => {
  expect(await linesOf([cases[0]![1]], 64)).toEqual(["a", "b", "c\r", "d"]);
  expect(await linesOf([cat(BOM, " \t\n", "x\n", BOM, "\t\r\n")], 64)).toEqual(["x"]);
  expect(
    await linesOf(
      [...cat("x\n", BOM, " \n", "y\n")].map((b) => new Uint8Array([b])),
      64,
    ),
  ).toEqual(["x", "y"]);
});
