// Many idle legacy sessions with their GET streams open, over raw sockets (fetch keeps at most 256
// connections per process): for the memory test and scripts/bench-scale.ts.
import type { Socket } from "bun";

const H = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** Initializes `n` legacy sessions (2025-06-18). @returns their ids. */
export async function legacySessions(url: string, n: number): Promise<string[]> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "idle", version: "1" } },
  });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await fetch(url, { method: "POST", headers: H, body });
    await r.arrayBuffer();
    const sid = r.headers.get("mcp-session-id");
    if (!sid) throw new Error(`initialize ${i} got ${r.status}`);
    ids.push(sid);
  }
  return ids;
}

/**
 * Opens one GET stream per session on its own socket and waits until each has its first event.
 * @returns the sockets (end them to close the streams).
 */
export async function openIdleStreams(url: string, sids: readonly string[]): Promise<Socket[]> {
  const u = new URL(url);
  const sockets: Socket[] = [];
  const batch = 200;
  for (let i = 0; i < sids.length; i += batch) {
    await Promise.all(
      sids.slice(i, i + batch).map(
        (sid) =>
          new Promise<void>((resolve, reject) => {
            let seen = "";
            void Bun.connect({
              hostname: u.hostname,
              port: Number(u.port),
              socket: {
                open(s) {
                  sockets.push(s);
                  s.write(
                    `GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${sid}\r\n\r\n`,
                  );
                },
                data(_s, d) {
                  seen += d.toString();
                  if (seen.includes("data:")) resolve();
                  else if (/^HTTP\/1\.1 (?!200)/.test(seen)) reject(new Error(seen.split("\r\n")[0]));
                },
                error: (_s, e) => reject(e),
              },
            }).catch(reject);
          }),
      ),
    );
  }
  return sockets;
}
