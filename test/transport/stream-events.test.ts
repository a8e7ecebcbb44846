// The events of legacy POST streams: a stream resumed after its result, then resumed again, replays the result
// each time while it is kept (a minute after the result); a stream past keepMs is gone.
import { expect, test } from "bun:test";
import { StreamEvents } from "../../src/transport/stream-events.ts";

function replay(events: StreamEvents, key: string, after: number, sid = "s1") {
  const r = events.find(`${key}.${after}`, sid)!;
  const got: string[] = [];
  let ended = false;
  const ok =
    r.recorder?.resume(
      r.after,
      (line) => got.push(line),
      () => (ended = true),
    ) ?? false;
  return { ok, got, ended };
}

test("a stream resumed after its result can be resumed again, and replays the result each time", () => {
  const events = new StreamEvents(1000, 10_000, 60_000);
  const r = events.open("s1");
  r.record("progress 1");
  r.detach(); // the client's connection dropped
  const first = events.find(`${r.key}.1`, "s1")!;
  const got: string[] = [];
  let ended = false;
  expect(
    first.recorder!.resume(
      first.after,
      (l) => got.push(l),
      () => (ended = true),
    ),
  ).toBe(true);
  r.record("result");
  r.finish();
  expect(got).toEqual(["result"]);
  expect(ended).toBe(true);
  // That resumed read was lost too: a second resume still gets the result, and a third.
  for (let i = 0; i < 2; i++) expect(replay(events, r.key, 1)).toEqual({ ok: true, got: ["result"], ended: true });
});

test("a stream delivered without a drop is still kept for a resumption after its result", () => {
  const events = new StreamEvents(1000, 10_000, 60_000);
  const r = events.open("s1");
  r.record("result");
  r.finish();
  expect(replay(events, r.key, 0)).toEqual({ ok: true, got: ["result"], ended: true });
  expect(events.find(`${r.key}.0`, "other")!.recorder).toBeUndefined(); // another session's id finds nothing
});

test("after keepMs a finished stream's events are dropped", async () => {
  const events = new StreamEvents(1000, 10_000, 0);
  const r = events.open("s1");
  r.record("result");
  r.finish();
  await Bun.sleep(1001); // the sweep runs at most once a second: time is what is tested
  events.open("s1");
  expect(events.find(`${r.key}.0`, "s1")!.recorder).toBeUndefined();
  expect(events.total).toBe(0);
});
