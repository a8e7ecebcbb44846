/** @module A minimal OTLP/HTTP trace receiver for tests: Bun.serve on 127.0.0.1, decodes http/json and http/protobuf bodies into plain spans. */
import type { Server } from "bun";

/** One received span, the same shape whichever encoding carried it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 2 = SERVER. */
  kind: number;
  attributes: Record<string, unknown>;
  /** OTLP StatusCode: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  resource: Record<string, unknown>;
  scope: string;
}

/** One export request as received. */
export interface ReceivedExport {
  path: string;
  contentType: string;
  /** The raw body as text (latin1 for protobuf), for "nothing forbidden appears anywhere" checks. */
  raw: string;
  spans: ReceivedSpan[];
}

/** A running receiver. */
export class OtlpReceiver {
  readonly exports: ReceivedExport[] = [];
  readonly server: Server<undefined>;

  /** @param opts.hang - accept requests but never answer (a collector that black-holes exports). */
  constructor(opts: { hang?: boolean } = {}) {
    this.server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (req) => {
        const body = new Uint8Array(await req.arrayBuffer());
        const contentType = req.headers.get("content-type") ?? "";
        const spans = contentType.includes("json")
          ? fromJson(JSON.parse(new TextDecoder().decode(body)))
          : fromProtobuf(body);
        this.exports.push({
          path: new URL(req.url).pathname,
          contentType,
          raw: Buffer.from(body).toString("latin1"),
          spans,
        });
        if (opts.hang) return new Promise<Response>(() => {});
        return new Response(contentType.includes("json") ? "{}" : new Uint8Array(0), {
          headers: { "content-type": contentType },
        });
      },
    });
  }

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** Every span received so far. */
  get spans(): ReceivedSpan[] {
    return this.exports.flatMap((e) => e.spans);
  }

  stop(): void {
    void this.server.stop(true);
  }
}

type Json = Record<string, any>;

function jsonValue(v: Json | undefined): unknown {
  if (!v) return undefined;
  if ("stringValue" in v) return v.stringValue;
  if ("boolValue" in v) return v.boolValue;
  if ("intValue" in v) return Number(v.intValue);
  if ("doubleValue" in v) return v.doubleValue;
  if ("arrayValue" in v) return (v.arrayValue.values ?? []).map(jsonValue);
  return v;
}
function jsonAttrs(list: Json[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));
}

/** OTLP/JSON (ids as hex strings, per the OTLP specification). */
export function fromJson(body: Json): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of body.resourceSpans ?? []) {
    const resource = jsonAttrs(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? "",
          name: s.name,
          kind: s.kind,
          attributes: jsonAttrs(s.attributes),
          status: { code: s.status?.code ?? 0, message: s.status?.message || undefined },
          resource,
          scope: ss.scope?.name ?? "",
        });
      }
    }
  }
  return out;
}

/** Protobuf wire format: field number → values (varint as bigint, length-delimited as bytes). */
type Fields = Map<number, (bigint | Uint8Array)[]>;

function decode(buf: Uint8Array): Fields {
  const fields: Fields = new Map();
  let i = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const tag = Number(varint());
    const field = tag >>> 3;
    let value: bigint | Uint8Array;
    switch (tag & 7) {
      case 0:
        value = varint();
        break;
      case 1:
        value = buf.subarray(i, (i += 8));
        break;
      case 2: {
        const len = Number(varint());
        value = buf.subarray(i, (i += len));
        break;
      }
      case 5:
        value = buf.subarray(i, (i += 4));
        break;
      default:
        throw new Error(`protobuf: unsupported wire type ${tag & 7}`);
    }
    const list = fields.get(field) ?? [];
    list.push(value);
    fields.set(field, list);
  }
  return fields;
}
const bytes = (f: Fields, n: number): Uint8Array[] => (f.get(n) ?? []) as Uint8Array[];
const str = (f: Fields, n: number): string => new TextDecoder().decode(bytes(f, n)[0] ?? new Uint8Array(0));
const hex = (f: Fields, n: number): string => Buffer.from(bytes(f, n)[0] ?? new Uint8Array(0)).toString("hex");
const num = (f: Fields, n: number): number => Number((f.get(n)?.[0] as bigint | undefined) ?? 0n);

function pbValue(buf: Uint8Array): unknown {
  const f = decode(buf);
  if (f.has(1)) return str(f, 1);
  if (f.has(2)) return num(f, 2) === 1;
  if (f.has(3)) return num(f, 3);
  if (f.has(4)) return new DataView(bytes(f, 4)[0]!.buffer, bytes(f, 4)[0]!.byteOffset, 8).getFloat64(0, true);
  if (f.has(5)) return bytes(decode(bytes(f, 5)[0]!), 1).map(pbValue);
  return undefined;
}
function pbAttrs(list: Uint8Array[]): Record<string, unknown> {
  return Object.fromEntries(
    list.map((kv) => decode(kv)).map((kv) => [str(kv, 1), pbValue(bytes(kv, 2)[0] ?? new Uint8Array(0))]),
  );
}

/** OTLP/protobuf ExportTraceServiceRequest (opentelemetry-proto trace/v1). */
export function fromProtobuf(body: Uint8Array): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rsBuf of bytes(decode(body), 1)) {
    const rs = decode(rsBuf);
    const resource = pbAttrs(bytes(decode(bytes(rs, 1)[0] ?? new Uint8Array(0)), 1));
    for (const ssBuf of bytes(rs, 2)) {
      const ss = decode(ssBuf);
      const scope = str(decode(bytes(ss, 1)[0] ?? new Uint8Array(0)), 1);
      for (const sBuf of bytes(ss, 2)) {
        const s = decode(sBuf);
        const status = decode(bytes(s, 15)[0] ?? new Uint8Array(0));
        out.push({
          traceId: hex(s, 1),
          spanId: hex(s, 2),
          parentSpanId: hex(s, 4),
          name: str(s, 5),
          kind: num(s, 6),
          attributes: pbAttrs(bytes(s, 9)),
          status: { code: num(status, 3), message: str(status, 2) || undefined },
          resource,
          scope,
        });
      }
    }
  }
  return out;
}
