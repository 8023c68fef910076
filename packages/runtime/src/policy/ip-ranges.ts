/**
 * Names the special range an IP address (as the URL parser writes it) falls in, so a
 * refusal can say why that address is dangerous; undefined for an ordinary public one.
 */
export function specialRange(host: string): string | undefined {
  if (host.startsWith("[")) return v6Range(host.slice(1, -1));
  const octets = host.split(".").map(Number);
  return v4Range(octets);
}

/** True when `host` (as `URL.hostname` gives it) is an IPv4 or IPv6 literal. */
export function isIpLiteral(host: string): boolean {
  return host.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

function v4Range(o: number[]): string | undefined {
  const [a = 0, b = 0] = o;
  if (a === 0) return "the unspecified network 0.0.0.0/8 (it reaches this machine)";
  if (a === 127) return "loopback (this machine)";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "a private network";
  if (a === 169 && b === 254) return "link-local (cloud metadata services live here)";
  if (a === 100 && b >= 64 && b <= 127) return "carrier-grade NAT (shared private space)";
  if (a >= 224) return "multicast or reserved space";
  return undefined;
}

function v6Range(text: string): string | undefined {
  const words = expandV6(text);
  const [w0 = 0] = words;
  if (words.every((w) => w === 0)) return "the unspecified address (it reaches this machine)";
  if (words.slice(0, 7).every((w) => w === 0) && words[7] === 1) return "loopback (this machine)";
  // ::ffff:a.b.c.d carries an IPv4 address; judge that address.
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) {
    const v4 = [(words[6] ?? 0) >> 8, (words[6] ?? 0) & 255, (words[7] ?? 0) >> 8, (words[7] ?? 0) & 255];
    return v4Range(v4) ?? "an IPv4-mapped address";
  }
  if ((w0 & 0xfe00) === 0xfc00) return "a private network (unique local fc00::/7)";
  if ((w0 & 0xffc0) === 0xfe80) return "link-local";
  if ((w0 & 0xff00) === 0xff00) return "multicast";
  return undefined;
}

/** Eight 16-bit words of an IPv6 address in the URL parser's compressed form. */
function expandV6(text: string): number[] {
  const [head = "", tail] = text.split("::");
  const part = (s: string) => (s === "" ? [] : s.split(":").map((h) => Number.parseInt(h, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}
