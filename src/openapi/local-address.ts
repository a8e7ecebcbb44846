/** @module Whether a redirect target's host is, or resolves to, an address of this machine's networks (loopback, private, link-local, reserved), in every form a URL can write one. */

/** The four bytes of a dotted IPv4 address, or null. */
function v4Bytes(ip: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return null;
  const b = m.slice(1).map(Number);
  return b.every((x) => x <= 255) ? b : null;
}

/** The kind of an IPv4 address given as bytes, undefined when public. */
function v4Kind([a, b]: number[]): string | undefined {
  if (a === 127) return "loopback";
  if (a === 169 && b === 254) return "link-local";
  if (
    a === 10 ||
    a === 0 ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b! >= 64 && b! <= 127)
  )
    return "private";
  if (a! >= 224) return "multicast or reserved"; // 224/4 multicast, 240/4 reserved, 255.255.255.255 broadcast
  return undefined;
}

/** The sixteen bytes of an IPv6 address (compressed, with a zone, or ending in a dotted IPv4), or null. */
function v6Bytes(ip: string): number[] | null {
  let s = ip.toLowerCase().replace(/%.*$/, "");
  const dotted = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const b = v4Bytes(dotted[1]!);
    if (!b) return null;
    s = `${s.slice(0, -dotted[1]!.length)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string | undefined) => (h ? h.split(":") : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 0) return null;
  const all = [...head, ...Array<string>(fill).fill("0"), ...tail];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]);
}

/** The kind of an IPv6 address given as bytes: its own ranges, and the IPv4 address it carries (mapped, compatible, NAT64, 6to4, Teredo). */
function v6Kind(x: number[]): string | undefined {
  const zeros = (from: number, to: number) => x.slice(from, to).every((b) => b === 0);
  if (zeros(0, 15)) return x[15] === 1 ? "loopback" : x[15] === 0 ? "private" : v4Kind(x.slice(12));
  if (zeros(0, 10) && x[10] === 0xff && x[11] === 0xff) return v4Kind(x.slice(12)); // ::ffff:a.b.c.d
  if (zeros(0, 12)) return v4Kind(x.slice(12)); // ::a.b.c.d (IPv4-compatible)
  if (x[0] === 0x00 && x[1] === 0x64 && x[2] === 0xff && x[3] === 0x9b) {
    return zeros(4, 12) ? v4Kind(x.slice(12)) : "private"; // NAT64 64:ff9b::/96, local-use 64:ff9b:1::/48
  }
  if (x[0] === 0x20 && x[1] === 0x02) return v4Kind(x.slice(2, 6)); // 6to4 2002::/16
  if (x[0] === 0x20 && x[1] === 0x01 && x[2] === 0 && x[3] === 0) return v4Kind(x.slice(12).map((b) => b ^ 0xff)); // Teredo
  if (x[0] === 0xfe && (x[1]! & 0xc0) === 0x80) return "link-local"; // fe80::/10
  if (x[0] === 0xfe && (x[1]! & 0xc0) === 0xc0) return "private"; // fec0::/10, site-local (deprecated)
  if ((x[0]! & 0xfe) === 0xfc) return "private"; // fc00::/7
  if (x[0] === 0xff) return "multicast or reserved";
  return undefined;
}

/**
 * The kind of an IP address: loopback (127/8, ::1), private (10/8, 172.16/12, 192.168/16, 100.64/10, 0/8, ::,
 * fc00::/7, fec0::/10), link-local (169.254/16, fe80::/10), multicast or reserved (224/3, ff00::/8); an IPv6 address
 * that carries an IPv4 one (::ffff:7f00:1, ::7f00:1, 64:ff9b::7f00:1, 2002:7f00:1::, Teredo) as that IPv4 address.
 * @param ip - an address (IPv6 without brackets).
 * @returns the kind, undefined for a public address, null when `ip` is not an IP address.
 */
export function addressKind(ip: string): string | undefined | null {
  const v4 = v4Bytes(ip);
  if (v4) return v4Kind(v4);
  if (!ip.includes(":")) return null;
  const v6 = v6Bytes(ip);
  return v6 ? v6Kind(v6) : null;
}

/**
 * Whether a host is, or resolves to, an address of this machine's networks. A trailing dot (`localhost.`, the
 * fully qualified form) names the same host.
 * @param host - a host name or IP literal (IPv6 in brackets or not).
 * @returns `"loopback"`, `"private"`, `"link-local"` or `"multicast or reserved"`, or undefined for a public host
 *   (or one that does not resolve).
 */
export async function localKind(host: string): Promise<string | undefined> {
  const h = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.+$/, "");
  if (h === "localhost" || h.endsWith(".localhost")) return "loopback";
  const literal = addressKind(h);
  if (literal !== null) return literal;
  let addresses: { address: string }[];
  try {
    const { lookup } = await import("node:dns/promises");
    addresses = await lookup(h, { all: true });
  } catch {
    return undefined; // the request itself will fail to connect
  }
  for (const a of addresses) {
    const k = addressKind(a.address);
    if (k) return k;
  }
  return undefined;
}
