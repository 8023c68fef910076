import type { EgressAllowlist, EgressRule } from "./egress-allowlist.js";
import { isLocalName, isPunycode } from "./host-kinds.js";
import { isIpLiteral, specialRange } from "./ip-ranges.js";

/** The verdict on one URL: the parsed URL to use, or why it is refused (a sentence the model can act on). */
export type EgressVerdict = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly reason: string };

const DEFAULT_PORTS: Readonly<Record<string, string>> = { "http:": "80", "https:": "443", "ws:": "80", "wss:": "443" };

/**
 * Checks one URL against an allowlist. The URL is parsed as `fetch` parses it (WHATWG URL),
 * so the host judged is the host a request would reach: `https://allowed.com@evil.com`
 * goes to evil.com, `http://2130706433/` to 127.0.0.1. Refused: anything that is not an
 * absolute URL, a user name or password in it, a host ending in a dot, and any host no
 * entry allows; IP addresses, `localhost` and internationalised (punycode) names only
 * pass when an entry names them exactly, never through a wildcard.
 */
export function checkUrl(raw: unknown, allowlist: EgressAllowlist): EgressVerdict {
  if (typeof raw !== "string" && !(raw instanceof URL)) return refuse("it is not a URL string");
  const text = String(raw);
  if (!URL.canParse(text)) return refuse(`${JSON.stringify(text)} is not an absolute URL (scheme://host/...)`);
  const url = new URL(text);
  if (!(url.protocol in DEFAULT_PORTS)) return refuse(`the scheme ${url.protocol} is not reachable (use https)`);
  if (url.username || url.password) {
    return refuse(
      `it carries a user name or password before the host ("${url.username}${url.password ? ":…" : ""}@"), which hides where it really goes: ${url.hostname}`,
    );
  }
  const host = url.hostname;
  if (host.endsWith(".")) return refuse(`its host "${host}" ends with a dot; write it without the dot`);
  const rule = allowlist.rules.find((r) => matches(r, url));
  if (!rule) return refuse(notListed(url, allowlist));
  return { ok: true, url };
}

function refuse(reason: string): EgressVerdict {
  return { ok: false, reason };
}

function matches(rule: EgressRule, url: URL): boolean {
  if (rule.scheme !== url.protocol) return false;
  if (rule.port !== "*") {
    const port = url.port || (DEFAULT_PORTS[url.protocol] as string);
    const wanted = rule.port === "default" ? DEFAULT_PORTS[rule.scheme] : rule.port;
    if (port !== wanted) return false;
  }
  const host = url.hostname;
  if (!rule.wildcard) return host === rule.host;
  // Addresses, localhost and punycode names pass only when named exactly.
  if (isIpLiteral(host) || isLocalName(host) || isPunycode(host)) return false;
  return host.endsWith(`.${rule.host}`);
}

/** Why no entry allowed the URL, most specific reason first. */
function notListed(url: URL, allowlist: EgressAllowlist): string {
  const host = url.hostname;
  const allowed = allowlist.rules.length ? allowlist.rules.map((r) => r.entry).join(", ") : "nothing";
  const tail = `; allowed: ${allowed}`;
  const sameHost = allowlist.rules.filter((r) => !r.wildcard && r.host === host);
  if (sameHost.length) {
    const port = url.port || DEFAULT_PORTS[url.protocol];
    return `${host} is allowed only as ${sameHost.map((r) => r.entry).join(", ")}, and this URL uses ${url.protocol.slice(0, -1)} on port ${port}${tail}`;
  }
  if (isIpLiteral(host)) {
    const range = specialRange(host);
    return `its host is the IP address ${host}${range ? `, in ${range}` : ""}, which is not on the allowlist${tail}`;
  }
  if (isLocalName(host)) return `its host ${host} is this machine, which is not on the allowlist${tail}`;
  if (isPunycode(host)) {
    return `its host ${host} is an internationalised name, which can imitate another host, and is not on the allowlist${tail}`;
  }
  return `${host} is not on the allowlist${tail}`;
}
