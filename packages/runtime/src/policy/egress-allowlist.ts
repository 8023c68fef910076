import type { ToolwrightError } from "../errors.js";
import { isLocalName, isPublicSuffix, isPunycode } from "./host-kinds.js";
import { isIpLiteral } from "./ip-ranges.js";
import type { PolicyOwner } from "./owner.js";
import type { EgressLookup } from "./resolve-check.js";

/** Options of an egress allowlist (`new Agent({ egress: { allow: [...] } })`, `serveMcp(tools, { egress })`). */
export interface EgressOptions {
  /**
   * Where tools may send requests. Each entry is a host (`api.example.com`), a wildcard
   * for its subdomains (`*.example.com`, which does not match `example.com` itself), or
   * either with a scheme and a port (`http://127.0.0.1:8080`, `https://*.example.com:*`).
   * Without a scheme only `https` is allowed; without a port only the scheme's default
   * port. IP addresses and `localhost` are reached only when written here as they are.
   * An entry that matches no host, or a wildcard over a public suffix (`*.com`, `*.co.uk`),
   * is refused when the agent (or MCP server) is made.
   */
  readonly allow: readonly string[];
  /** Redirects `ctx.fetch` follows, each checked against the list (default 5). */
  readonly maxRedirects?: number;
  /**
   * Lets listed names resolve to loopback, private and link-local addresses in `ctx.fetch`
   * (for services on your own network). Default false: such a name is refused when it
   * resolves there, which stops DNS rebinding and hostile DNS records.
   */
  readonly allowPrivateAddresses?: boolean;
  /** Resolves names for `ctx.fetch` instead of the system resolver (`dns.lookup`). */
  readonly lookup?: EgressLookup;
}

/** One parsed entry of the allowlist. */
export interface EgressRule {
  /** As written, for messages. */
  readonly entry: string;
  /** With the colon, as `URL.protocol` gives it: `"https:"`. */
  readonly scheme: string;
  /** Lower-case host as the URL parser writes it (punycode, `[v6]`); without the `*.` of a wildcard. */
  readonly host: string;
  readonly wildcard: boolean;
  /** `"default"`: only the scheme's default port; `"*"`: any port. */
  readonly port: string;
}

/** The allowlist in force for a run. */
export interface EgressAllowlist {
  readonly rules: readonly EgressRule[];
  readonly maxRedirects: number;
  readonly allowPrivateAddresses: boolean;
  readonly lookup: EgressLookup | undefined;
}

const SCHEMES = new Set(["http:", "https:", "ws:", "wss:"]);

/** Parses an owner's egress option; a malformed entry is the owner's config error, naming it. */
export function parseAllowlist(owner: PolicyOwner, options: EgressOptions): EgressAllowlist {
  const where = `${owner.label}: egress.allow`;
  if (!Array.isArray(options.allow)) {
    throw owner.configError(`${where} must be a list of hosts, e.g. { allow: ["api.example.com"] }.`);
  }
  const maxRedirects = options.maxRedirects ?? 5;
  if (!(Number.isInteger(maxRedirects) && maxRedirects >= 0)) {
    throw owner.configError(`${owner.label}: egress.maxRedirects must be a whole number, got ${maxRedirects}.`);
  }
  if (options.lookup !== undefined && typeof options.lookup !== "function") {
    throw owner.configError(
      `${owner.label}: egress.lookup must be a function shaped like dns.lookup (hostname, options, callback), got ${JSON.stringify(options.lookup)}. Leave it out to use the system resolver.`,
    );
  }
  return {
    rules: options.allow.map((entry) => parseRule(owner, where, entry)),
    maxRedirects,
    allowPrivateAddresses: options.allowPrivateAddresses === true,
    lookup: options.lookup,
  };
}

function parseRule(owner: PolicyOwner, where: string, entry: unknown): EgressRule {
  const bad = (why: string) =>
    owner.configError(
      `${where} entry ${JSON.stringify(entry)} ${why}. Write a host ("api.example.com"), a wildcard ("*.example.com") or a scheme, host and port ("http://127.0.0.1:8080").`,
    );
  if (typeof entry !== "string" || entry.trim() === "") throw bad("is not a host");
  const text = entry.trim();
  const schemeMatch = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  const scheme = schemeMatch ? `${(schemeMatch[1] as string).toLowerCase()}:` : "https:";
  if (!SCHEMES.has(scheme)) throw bad(`names the scheme ${scheme} (only http, https, ws and wss are reached)`);
  let rest = schemeMatch ? text.slice(schemeMatch[0].length) : text;
  if (/[/?#@\\]/.test(rest)) throw bad("has a path, a query or a user name; an entry is only a host and a port");
  let port = "default";
  const portMatch = /:(\d+|\*)$/.exec(rest);
  if (portMatch) {
    port = portMatch[1] as string;
    rest = rest.slice(0, -portMatch[0].length);
  }
  const wildcard = rest.startsWith("*.");
  const bare = wildcard ? rest.slice(2) : rest;
  if (bare.includes("*")) throw bad('has a "*" that is not a leading "*." label');
  let parsed: URL;
  try {
    parsed = new URL(`${scheme}//${bare}${port === "default" || port === "*" ? "" : `:${port}`}`);
  } catch {
    throw bad("is not a valid host");
  }
  const host = parsed.hostname;
  if (host.endsWith(".")) throw bad("ends with a dot; write the host without it");
  if (host.split(".").includes(""))
    throw bad("has an empty label (two dots in a row, or a leading dot), so it matches no host");
  if (wildcard) checkWildcard(host, bad);
  // The parser drops a port equal to the scheme's default: that is the "default" rule.
  const normalizedPort = port === "default" || port === "*" ? port : parsed.port || "default";
  return { entry: text, scheme, host, wildcard, port: normalizedPort };
}

/**
 * Refuses a wildcard that matches nothing (URLs reach addresses, `localhost` and punycode
 * names only as listed, never through a wildcard) or everything under a public suffix
 * (`*.com`, `*.co.uk`, `*.github.io`: names anyone can register), by the Public Suffix List.
 */
function checkWildcard(host: string, bad: (why: string) => ToolwrightError): void {
  if (isIpLiteral(host)) throw bad("is a wildcard over an IP address, which matches no host; list the address itself");
  if (isLocalName(host)) throw bad("is a wildcard over localhost, which matches no host; list the local name itself");
  if (isPunycode(host)) {
    throw bad("is a wildcard over an internationalised name, which matches no host; list each name itself");
  }
  if (isPublicSuffix(host)) {
    throw bad(
      `is a wildcard over the public suffix "${host}", under which anyone can register a name (attacker.${host}); list the domain you mean, as "*.example.${host}"`,
    );
  }
}
