// JSON-RPC handling cases B06, B13, B15, B18 against the compiled fixture: bad input gets the right answer and the session goes on.
import { beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { initLine, INITED } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";
import { assertAllJson, call, exitWithin, fixtureBin, killAfterEach, spawnFixture, textOf } from "./harness.ts";

killAfterEach();

const V = "2025-06-18";

setDefaultTimeout(30_000); // bun 1.4.4 ignores bunfig's [test] timeout; these tests run real processes
beforeAll(async () => {
  await fixtureBin();
}, 60_000);

describe("B06 malformed lines must not end the session", () => {
  test("the handed lines get -32700 / -32600 with the id that could be read", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    for (const l of [
      "not json",
      '{"jsonrpc":"2.0","id":2,"method":"tools/li',
      "123",
      '{"id":4,"method":"ping"}',
      '{"jsonrpc":"2.0","id":5,"method":7}',
      '{"jsonrpc":"2.0","id":6,"method":"ping"}',
    ])
      p.send(l);
    const r6 = await p.response(6);
    expect(r6.result).toEqual({});
    const errs = p.messages.slice(1, 6);
    expect(errs.map((m) => [m.id, m.error?.code])).toEqual([
      [null, -32700],
      [null, -32700],
      [null, -32600],
      [4, -32600],
      [5, -32600],
    ]);
    for (const m of [...errs, r6]) assertValidResponse(V, "ping", m);
    expect(p.proc.exitCode).toBe(null);
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
  });

  test("the whole kind: other shapes, deep nesting, NUL and invalid UTF-8 bytes", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    const cases: [string | Uint8Array, unknown, number][] = [
      ["null", null, -32600],
      ['"text"', null, -32600],
      ["[]", null, -32600], // a batch outside a 2025-03-26 session
      ['{"jsonrpc":"2.0","id":null,"method":"ping"}', null, -32600],
      ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null, -32600],
      ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', null, -32600],
      ['{"jsonrpc":"1.0","id":10,"method":"ping"}', 10, -32600],
      ['{"jsonrpc":"2.0","id":11,"method":"ping","params":"x"}', 11, -32600],
      ['{"jsonrpc":"2.0","id":12}', 12, -32600],
      ["[".repeat(200_000) + "]".repeat(200_000), null, -32600], // valid JSON, parsed without recursion limits
      ['{"a":'.repeat(100_000) + "1" + "}".repeat(100_000), null, -32600],
      [
        '{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"echo","arguments":{"text":' +
          "[".repeat(100_000) +
          "]".repeat(100_000) +
          "}}}",
        15,
        1,
      ],
      ['{"jsonrpc":"2.0","id":13,"method":"ping"}\0', null, -32700],
      [new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), null, -32700],
      [
        '{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\\ud800"}}}',
        14,
        0,
      ],
    ];
    for (const [line] of cases) {
      if (typeof line === "string") p.send(line);
      else p.write(new Uint8Array([...line, 10]));
    }
    p.send('{"jsonrpc":"2.0","id":99,"method":"ping"}');
    await p.response(99);
    const got = p.messages.slice(1, -1);
    expect(got.length).toBe(cases.length);
    got.forEach((m, i) => {
      const [, id, code] = cases[i]!;
      expect(m.id).toBe(id);
      // Only well-formed Unicode leaves the server: the lone surrogate comes back as U+FFFD.
      if (code === 0) expect(textOf(m)).toBe("\ufffd");
      else if (code === 1) expect(m.result.isError).toBe(true);
      else expect(m.error.code).toBe(code);
    });
    expect(p.proc.exitCode).toBe(null);
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
    assertAllJson(p);
  });
});

describe("B13 notifications never get a reply", () => {
  test("initialized, unknown and cancel-of-unknown notifications produce no line", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    p.send('{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}');
    p.send('{"jsonrpc":"2.0","method":"notifications/made_up","params":{"x":1}}');
    p.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}');
    // The whole kind: malformed cancellations, a notification before... and client responses are also silent.
    p.send('{"jsonrpc":"2.0","method":"notifications/cancelled"}');
    p.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":1}}}');
    p.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":null}');
    p.send('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}');
    p.send('{"jsonrpc":"2.0","id":"s1","result":{}}');
    p.send('{"jsonrpc":"2.0","id":"s2","error":{"code":-1,"message":"x"}}');
    p.send(INITED);
    p.send('{"jsonrpc":"2.0","id":2,"method":"ping"}');
    assertValidResponse(V, "ping", await p.response(2));
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
    expect(p.messages.map((m) => m.id)).toEqual([1, 2]);
  });
});

describe("B15 id type and value echoed exactly", () => {
  test("string, zero, numeric-string, negative and unicode ids come back with the same JSON type", async () => {
    const p = await spawnFixture();
    p.send(initLine(V, "init-1"));
    assertValidResponse(V, "initialize", await p.response("init-1"));
    p.send(INITED);
    p.send('{"jsonrpc":"2.0","id":0,"method":"tools/list"}');
    p.send('{"jsonrpc":"2.0","id":"0","method":"ping"}');
    p.send('{"jsonrpc":"2.0","id":-5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"t"}}}');
    p.send('{"jsonrpc":"2.0","id":"a b/ü","method":"ping"}');
    // The whole kind: big integers, empty and escaped strings, and an async call keep their ids too.
    p.send('{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}');
    p.send('{"jsonrpc":"2.0","id":"","method":"ping"}');
    p.send('{"jsonrpc":"2.0","id":"q\\"\\n\\u2028","method":"ping"}');
    p.send(JSON.stringify(call("w", "wait", { ms: 1 })));
    await p.response("w");
    for (const id of [0, "0", -5, "a b/ü", 9007199254740991, "", 'q"\n\u2028']) await p.response(id);
    // The same JSON string comes back; U+2028 leaves as its escape (a line reader may split a line at it).
    const ids = p.lines.map((l) => l.match(/^\{"jsonrpc":"2\.0","id":("(?:[^"\\]|\\.)*"|-?\d+)/)?.[1]);
    expect(ids).toEqual(['"init-1"', "0", '"0"', "-5", '"a b/ü"', "9007199254740991", '""', '"q\\"\\n\\u2028"', '"w"']);
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
  });
});

describe("B15 kind: ids JSON cannot carry exactly", () => {
  test("an integer id beyond 2^53 (it would be echoed as another number) gets -32600 with id null", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    p.send('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}');
    p.send('{"jsonrpc":"2.0","id":2,"method":"ping"}');
    await p.response(2);
    const err = p.messages.find((m) => m.id === null)!;
    expect(err.error.code).toBe(-32600);
    expect(p.messages.some((m) => m.id === 9007199254740992)).toBe(false);
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
  });
});

describe("thrown values that cannot be read", () => {
  test("an Error whose message getter throws is still an isError result, never -32603", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    const r = await p.request("tools/call", { name: "hostile_throw", arguments: {} }, 2, V);
    expect(r.result.isError).toBe(true);
    expect(textOf(r)).toBe("the thrown value could not be read");
    expect((await p.request("ping", undefined, 3, V)).result).toEqual({});
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
  });
});

describe("B18 unknown methods get -32601 and the session goes on", () => {
  test("resources/list, prompts/list and made-up methods → -32601; tools/list still works", async () => {
    const p = await spawnFixture();
    const init = await p.handshake(V);
    // A tools-only server: no resources, prompts or completions are advertised (logging is: tools may log).
    expect(Object.keys(init.capabilities)).toEqual(["tools", "logging"]);
    for (const [id, method] of [
      [2, "resources/list"],
      [3, "prompts/list"],
      [4, "no/such/method"],
      [5, "completion/complete"],
    ] as const) {
      const r = await p.request(method, {}, id, V);
      expect(r.error.code).toBe(-32601);
    }
    const r = await p.request("tools/list", undefined, 6, V);
    expect(r.result.tools.map((t: { name: string }) => t.name)).toContain("echo");
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
  });
});
