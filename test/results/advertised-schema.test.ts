// The advertised JSON Schema is never stricter than the validator: for each valibot action JSON Schema cannot
// say as the converter writes it (a regex with flags, a check after a transformation, a stricter format, a
// length in UTF-16 units, v.check/v.custom), a value valibot accepts is accepted by Ajv against the advertised
// schema, both with Ajv 2020 + ajv-formats and with the official SDK's own validator; what is translated
// exactly also rejects what valibot rejects; what is left out is named in one `mcpbin build` warning.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import * as v from "valibot";
import { tool } from "../../src/index.ts";
import { ROOT } from "../helpers/proc.ts";
import { mcpbin } from "../cli/run-cli.ts";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const sdk = new AjvJsonSchemaValidator();

/** Both validators' verdicts on one value against one advertised schema. */
function ajvAccepts(schema: Record<string, unknown>, value: unknown): [boolean, boolean] {
  return [ajv.validate(schema, value) as boolean, sdk.getValidator(schema as never)(value).valid];
}

/** [what, field schema, values valibot accepts, values valibot rejects that an exact translation must reject too]. */
const INPUT: [string, v.GenericSchema, unknown[], unknown[]][] = [
  ["v.regex with the i flag", v.pipe(v.string(), v.regex(/^[a-z]+$/i)), ["ABC", "abc"], []],
  ["v.regex with the m flag", v.pipe(v.string(), v.regex(/^b$/m)), ["a\nb"], []],
  ["v.regex with the s flag", v.pipe(v.string(), v.regex(/^a.b$/s)), ["a\nb"], []],
  ["v.regex with the u flag (exact)", v.pipe(v.string(), v.regex(/^\p{L}+$/u)), ["été", "ABC"], ["1", "a b"]],
  [
    "two regexes in one pipe (allOf, exact)",
    v.pipe(v.string(), v.regex(/^a/), v.regex(/b$/)),
    ["ab", "axb"],
    ["ba", "ax"],
  ],
  [
    "v.hexadecimal with v.startsWith (allOf, exact)",
    v.pipe(v.string(), v.hexadecimal(), v.startsWith("0x")),
    ["0xDEADbeef"],
    ["DEAD", "0xZZ"],
  ],
  ["v.trim then v.maxLength", v.pipe(v.string(), v.trim(), v.maxLength(3)), ["  ab  "], []],
  ["v.toLowerCase then v.regex", v.pipe(v.string(), v.toLowerCase(), v.regex(/^[a-z]+$/)), ["ABC"], []],
  [
    "v.transform then a schema and checks",
    v.pipe(v.string(), v.transform(Number), v.number(), v.minValue(3)),
    ["5"],
    [],
  ],
  [
    "v.check",
    v.pipe(
      v.string(),
      v.check((s) => s !== "x"),
    ),
    ["y"],
    [],
  ],
  ["v.custom", v.custom<string>((x) => typeof x === "string"), ["anything"], []],
  [
    "v.isoDate (format date checks the calendar)",
    v.pipe(v.string(), v.isoDate()),
    ["2023-02-30", "2024-01-31"],
    ["2023-13-01", "23-01-01"],
  ],
  [
    "v.isoDateTime (format date-time needs seconds and an offset)",
    v.pipe(v.string(), v.isoDateTime()),
    ["2023-01-01T12:00", "2023-01-01 12:00"],
    ["2023-01-01T25:00"],
  ],
  [
    "v.isoTimestamp",
    v.pipe(v.string(), v.isoTimestamp()),
    ["2023-01-01 12:00:00+0100", "2023-01-01T12:00:00.123Z"],
    ["2023-01-01T12:00"],
  ],
  ["v.isoTime (format time needs seconds and an offset)", v.pipe(v.string(), v.isoTime()), ["12:00"], ["24:00"]],
  [
    "v.rfcEmail (format email needs a dot in the domain)",
    v.pipe(v.string(), v.rfcEmail()),
    ["a@localhost", "a.b@ex-ample.com"],
    ["no-at-sign"],
  ],
  ["v.email", v.pipe(v.string(), v.email()), ["a_b+c@ex-ample.co", "A.B@EXAMPLE.COM"], []],
  [
    "v.url (format uri refuses what the URL parser takes)",
    v.pipe(v.string(), v.url()),
    ["https://例え.jp/パス", "http://example.com/a b"],
    [],
  ],
  ["v.uuid (uppercase)", v.pipe(v.string(), v.uuid()), ["A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"], []],
  [
    "v.ipv4 and v.ipv6",
    v.union([v.pipe(v.string(), v.ipv4()), v.pipe(v.string(), v.ipv6())]),
    ["192.168.0.1", "::1", "2001:DB8::1", "fe80::1:2:3:4"],
    [],
  ],
  ["v.minLength counts UTF-16 units", v.pipe(v.string(), v.minLength(4)), ["😀😀", "abcd"], []],
  ["v.length counts UTF-16 units", v.pipe(v.string(), v.length(4)), ["😀😀"], []],
  ["v.brand keeps the checks before it", v.pipe(v.string(), v.maxLength(2), v.brand("Short")), ["ab"], ["abc"]],
];

describe("input: what valibot accepts, the advertised schema accepts", () => {
  for (const [what, field, accepted, rejected] of INPUT) {
    test(what, () => {
      const t = tool({ name: "probe", description: "probe", input: v.object({ f: field }), run: () => "ok" });
      const schema = t.inputSchema as Record<string, unknown>;
      for (const value of accepted) {
        expect(v.safeParse(field, value).success).toBe(true); // the premise: the server accepts it
        expect([value, ajvAccepts(schema, { f: value })]).toEqual([value, [true, true]]);
      }
      for (const value of rejected) {
        expect(v.safeParse(field, value).success).toBe(false);
        expect([value, ajvAccepts(schema, { f: value })]).toEqual([value, [false, false]]);
      }
    });
  }
});

describe("output: what the server sends after parsing, the advertised outputSchema accepts", () => {
  const OUTPUT: [string, v.GenericSchema, unknown][] = [
    ["a regex before v.toUpperCase", v.pipe(v.string(), v.regex(/^[a-z]+$/), v.toUpperCase()), "abc"],
    ["v.minLength before v.trim", v.pipe(v.string(), v.minLength(6), v.trim()), "  ab  "],
    ["v.regex with the i flag", v.pipe(v.string(), v.regex(/^[a-z]+$/i)), "ABC"],
  ];
  for (const [what, field, input] of OUTPUT) {
    test(what, () => {
      const output = v.object({ f: field });
      const t = tool({
        name: "probe",
        description: "probe",
        input: v.object({}),
        output,
        run: () => ({ f: input }) as never,
      });
      const sent = v.parse(output, { f: input });
      expect(ajvAccepts(t.outputSchema as Record<string, unknown>, sent)).toEqual([true, true]);
    });
  }
});

test("mcpbin build names the tool and the field of each action left out of the advertised schema, once, on stderr", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-advertised-"));
  try {
    const script = join(dir, "server.ts");
    writeFileSync(
      script,
      [
        `import * as v from ${JSON.stringify(Bun.resolveSync("valibot", ROOT))};`,
        `import { serve, tool } from ${JSON.stringify(resolve(ROOT, "src/index.ts"))};`,
        `const lookup = tool({ name: "lookup", description: "Looks a code up.", input: v.object({ code: v.pipe(v.string(), v.regex(/^[a-z]{3}$/i)), note: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(10))) }), run: ({ code }) => code });`,
        `await serve({ name: "advertised", version: "1.0.0", tools: [lookup] });`,
      ].join("\n"),
    );
    const r = await mcpbin(["build", script, "--outfile", join(dir, "server")]);
    expect([r.code, r.stderr]).toEqual([0, expect.any(String)]);
    const warnings = r.stderr.split("\n").filter((l) => l.startsWith("mcpbin: warning:"));
    expect(warnings).toEqual([
      'mcpbin: warning: tool "lookup": input field "code": v.regex(/^[a-z]{3}$/i) is left out of the advertised JSON Schema (RegExp flags "i" have no JSON Schema form); the server still checks it',
      'mcpbin: warning: tool "lookup": input field "note": v.maxLength() is left out of the advertised JSON Schema (it checks what an earlier transformation returned, not what the client sends); the server still checks it',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
