// Reads an SSE response event by event (id, data, retry, comments), for tests that drop and resume streams.

/** One SSE event as it came: its fields, and the comment lines before it. */
export interface SseEvent {
  readonly id?: string;
  readonly data?: string;
  readonly retry?: number;
  readonly comments: readonly string[];
}

/** An SSE response body, one event at a time. */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #dec = new TextDecoder();
  #buf = "";
  #done = false;

  constructor(readonly res: Response) {
    this.#reader = res.body!.getReader();
  }

  /** The next event (undefined once the stream ended), within `timeoutMs`. */
  async next(timeoutMs = 5000): Promise<SseEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.#buf.indexOf("\n\n");
      if (i !== -1) {
        const block = this.#buf.slice(0, i);
        this.#buf = this.#buf.slice(i + 2);
        return parse(block);
      }
      if (this.#done) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no SSE event within ${timeoutMs} ms (buffered: ${JSON.stringify(this.#buf)})`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const r = await Promise.race([
        this.#reader.read(),
        new Promise<"timeout">((res) => (timer = setTimeout(() => res("timeout"), left))),
      ]).finally(() => clearTimeout(timer));
      if (r === "timeout") continue;
      if (r.done) this.#done = true;
      else this.#buf += this.#dec.decode(r.value, { stream: true });
    }
  }

  /** The next event that carries a JSON-RPC message (priming events and comment-only blocks skipped), parsed, with its id. */
  async message(timeoutMs = 5000): Promise<{ id?: string; msg: any } | undefined> {
    for (;;) {
      const e = await this.next(timeoutMs);
      if (e === undefined) return undefined;
      if (e.data) return { id: e.id, msg: JSON.parse(e.data) };
    }
  }

  /** Drops the connection. */
  async close(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

function parse(block: string): SseEvent {
  const comments: string[] = [];
  let id: string | undefined;
  let retry: number | undefined;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) comments.push(line.slice(1).trim());
    else {
      const c = line.indexOf(":");
      const field = c === -1 ? line : line.slice(0, c);
      const value = c === -1 ? "" : line.slice(c + 1).replace(/^ /, "");
      if (field === "id") id = value;
      else if (field === "data") data.push(value);
      else if (field === "retry") retry = Number(value);
    }
  }
  return {
    ...(id !== undefined ? { id } : {}),
    ...(data.length ? { data: data.join("\n") } : {}),
    ...(retry !== undefined ? { retry } : {}),
    comments,
  };
}
