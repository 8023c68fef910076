import { createRequire } from "node:module";

// Kinds of host names the egress allowlist treats apart from ordinary ones.

/** `localhost` and its subdomains: this machine. */
export function isLocalName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

/** A name with an internationalised (punycode) label, which can imitate another name. */
export function isPunycode(host: string): boolean {
  return host.split(".").some((label) => label.startsWith("xn--"));
}

type Tldts = typeof import("tldts");
let tldts: Tldts | undefined;

/**
 * True when `host` is itself a public suffix on the Public Suffix List (`com`, `co.uk`,
 * and the private section's `github.io`): a suffix under which anyone can register a name.
 * A name the list does not know (`internal`, `corp`) is not one. The list (tldts) is
 * loaded on first use, so only agents with a wildcard entry load it.
 */
export function isPublicSuffix(host: string): boolean {
  tldts ??= createRequire(import.meta.url)("tldts") as Tldts;
  const parsed = tldts.parse(host, { allowPrivateDomains: true, extractHostname: false });
  return (
    parsed.domain === null && parsed.publicSuffix === host && (parsed.isIcann === true || parsed.isPrivate === true)
  );
}
