/** @module Release archives without external tools, reproducible (sorted entries, one fixed time): .tar.gz (mode 0755 kept) and .zip (fflate), plus SHA-256 sums. */
import { crc32 } from "node:zlib";
import { createHash } from "node:crypto";
import { Zip, type ZipInputFile } from "fflate";

/** One file in an archive. */
export interface ArchiveEntry {
  /** Path inside the archive, `/`-separated, at most 100 bytes. */
  readonly name: string;
  readonly data: Uint8Array;
  /** Unix permission bits, e.g. 0o755 for an executable. */
  readonly mode: number;
}

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, "0") + "\0";
}

function tarHeader(name: string, size: number, mode: number, type: "0" | "5", mtime: number): Uint8Array {
  const h = new Uint8Array(512);
  const enc = new TextEncoder();
  const put = (s: string, at: number) => h.set(enc.encode(s), at);
  if (enc.encode(name).length > 100) throw new Error(`archive path too long: ${name}`);
  put(name, 0);
  put(octal(mode, 8), 100);
  put(octal(0, 8), 108);
  put(octal(0, 8), 116);
  put(octal(size, 12), 124);
  put(octal(mtime, 12), 136);
  put("        ", 148);
  put(type, 156);
  put("ustar\0", 257);
  put("00", 263);
  let sum = 0;
  for (const b of h) sum += b;
  put(octal(sum, 7) + " ", 148);
  return h;
}

/**
 * The fixed modification time of every entry, seconds since the epoch: `SOURCE_DATE_EPOCH` when set
 * (reproducible-builds.org), else 1980-01-01T00:00:00Z, the earliest a ZIP's DOS date can say.
 * @param env - the environment.
 */
export function archiveEpoch(env: Record<string, string | undefined> = process.env): number {
  const s = env.SOURCE_DATE_EPOCH;
  const n = s !== undefined && /^\d+$/.test(s) ? Number(s) : NaN;
  return Number.isSafeInteger(n) && n >= DOS_EPOCH ? n : DOS_EPOCH;
}
const DOS_EPOCH = 315_532_800;

/** Entries in byte order of their names: the archive does not depend on the order it was given. */
function sorted(entries: readonly ArchiveEntry[]): ArchiveEntry[] {
  return [...entries].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
}

/**
 * A gzip-compressed ustar archive, reproducible: entries sorted by name, one fixed time, owner 0:0.
 * fflate has no tar writer, so the ustar headers are written here (512-byte blocks, nothing more);
 * the gzip layer is libdeflate's (Bun.gzipSync: header time 0), twice as fast as fflate's on a 100 MB executable.
 * @param entries - files; their parent directories are added as entries too.
 * @param mtime - modification time of every entry, seconds since the epoch; default {@link archiveEpoch}.
 * @returns the archive's bytes.
 */
export function tarGz(entries: readonly ArchiveEntry[], mtime = archiveEpoch()): Uint8Array {
  const parts: Uint8Array[] = [];
  const dirs = new Set<string>();
  for (const e of sorted(entries)) {
    const segs = e.name.split("/").slice(0, -1);
    for (let i = 1; i <= segs.length; i++) {
      const d = segs.slice(0, i).join("/") + "/";
      if (!dirs.has(d)) {
        dirs.add(d);
        parts.push(tarHeader(d, 0, 0o755, "5", mtime));
      }
    }
    parts.push(tarHeader(e.name, e.data.length, e.mode, "0", mtime), e.data);
    const pad = (512 - (e.data.length % 512)) % 512;
    if (pad) parts.push(new Uint8Array(pad));
  }
  parts.push(new Uint8Array(1024));
  return Bun.gzipSync(Buffer.concat(parts), { level: 6, library: "libdeflate" });
}

/**
 * A zip archive (deflate), for Windows, written by fflate's `Zip` and reproducible: entries sorted by
 * name, one fixed time, Unix modes recorded. Each file is deflated by libdeflate (Bun.deflateSync, raw
 * DEFLATE) and handed to fflate as a ready `ZipInputFile`; fflate writes the headers and the central directory.
 * @param entries - files.
 * @param mtime - modification time of every entry, seconds since the epoch; default {@link archiveEpoch}.
 * @returns the archive's bytes.
 */
export function zip(entries: readonly ArchiveEntry[], mtime = archiveEpoch()): Uint8Array {
  const chunks: Uint8Array[] = [];
  let failed: Error | null = null;
  const z = new Zip((err, chunk) => {
    if (err) failed = err;
    else chunks.push(chunk);
  });
  // A DOS date has no zone: fflate reads the local fields of a Date, so give it the UTC fields as local ones.
  const t = new Date(mtime * 1000);
  const when = new Date(
    t.getUTCFullYear(),
    t.getUTCMonth(),
    t.getUTCDate(),
    t.getUTCHours(),
    t.getUTCMinutes(),
    t.getUTCSeconds(),
  );
  for (const e of sorted(entries)) {
    const file: ZipInputFile = {
      filename: e.name,
      size: e.data.length,
      crc: crc32(e.data),
      compression: 8,
      mtime: when,
      os: 3, // Unix, so that attrs carries the mode
      attrs: ((0o100000 | e.mode) << 16) >>> 0,
    };
    z.add(file);
    file.ondata!(null, Bun.deflateSync(e.data as Uint8Array<ArrayBuffer>, { level: 6, library: "libdeflate" }), true);
  }
  z.end();
  if (failed) throw failed;
  return Buffer.concat(chunks);
}

/** Hex SHA-256 of some bytes. */
export function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
