import { describe, expect, it } from "vitest";
import { AgentConfigError } from "../../src/index.js";
import { parseAllowlist } from "../../src/policy/egress-allowlist.js";
import { checkUrl } from "../../src/policy/egress-url.js";
import { agentOwner } from "../../src/policy/owner.js";
import type { EgressLookup } from "../../src/policy/resolve-check.js";

const ALLOWLIST = parseAllowlist(agentOwner("web"), {
  allow: ["api.example.com", "*.docs.example.org", "http://127.0.0.1:8080", "ports.example.com:8443", "bücher.example"],
});

/** [url, allowed, what the refusal must say] */
const TABLE: [unknown, boolean, RegExp?][] = [
  // Hosts as listed, in the forms the URL parser treats as the same host.
  ["https://api.example.com/v1/items?q=1", true],
  ["https://API.Example.COM/v1", true],
  ["HTTPS://api.example.com/", true],
  ["https://api.example.com:443/", true],
  ["https://api.example.com:0443/", true],
  ["https:api.example.com/v1", true],
  ["https://%61pi.example.com/", true],
  ["https://api.exa\tmple.com/", true],
  // Scheme and port.
  ["http://api.example.com/", false, /allowed only as api\.example\.com, and this URL uses http on port 80/],
  ["ws://api.example.com/", false, /uses ws on port 80/],
  ["https://api.example.com:8443/", false, /uses https on port 8443/],
  ["https://ports.example.com:8443/", true],
  ["https://ports.example.com/", false, /allowed only as ports\.example\.com:8443/],
  ["file:///etc/passwd", false, /scheme file: is not reachable/],
  ["javascript:alert(1)", false, /scheme javascript: is not reachable/],
  ["data:text/plain,hello", false, /scheme data: is not reachable/],
  ["ftp://api.example.com/", false, /scheme ftp: is not reachable/],
  ["gopher://api.example.com:70/", false, /scheme gopher: is not reachable/],
  // Look-alike hosts.
  ["https://api.example.com./", false, /ends with a dot/],
  ["https://api.example.com.evil.com/", false, /api\.example\.com\.evil\.com is not on the allowlist/],
  ["https://evil.com/api.example.com", false, /evil\.com is not on the allowlist/],
  ["https://evil.com\\@api.example.com/", false, /evil\.com is not on the allowlist/],
  ["https://evil.com#@api.example.com", false, /evil\.com is not on the allowlist/],
  ["https://evil.com?@api.example.com", false, /evil\.com is not on the allowlist/],
  ["https://notapi.example.com/", false, /notapi\.example\.com is not on the allowlist/],
  // Userinfo tricks.
  ["https://api.example.com@evil.com/", false, /user name or password .*really goes: evil\.com/],
  ["https://user:secret@api.example.com/", false, /user name or password/],
  ["https://api.example.com%2f@evil.com/", false, /really goes: evil\.com/],
  ["https://api.example.com:443@evil.com/", false, /really goes: evil\.com/],
  // Wildcards: subdomains only, on a label boundary, never an address or a punycode name.
  ["https://guide.docs.example.org/", true],
  ["https://a.b.docs.example.org/x", true],
  ["https://docs.example.org/", false, /docs\.example\.org is not on the allowlist/],
  ["https://xdocs.example.org/", false, /not on the allowlist/],
  ["https://guide.docs.example.org.evil.com/", false, /not on the allowlist/],
  ["https://xn--80ak6aa92e.docs.example.org/", false, /internationalised name/],
  // Internationalised names: only as listed.
  ["https://bücher.example/", true],
  ["https://xn--bcher-kva.example/", true],
  ["https://аpi.example.com/", false, /xn--pi-6kc\.example\.com is an internationalised name/],
  ["https://ex\u0430mple.com/", false, /internationalised name/],
  // IP literals in every spelling, and this machine.
  ["http://127.0.0.1:8080/health", true],
  ["http://2130706433:8080/", true],
  ["http://0x7f000001:8080/", true],
  ["http://127.0.0.1/", false, /allowed only as http:\/\/127\.0\.0\.1:8080, and this URL uses http on port 80/],
  ["http://2130706434/", false, /IP address 127\.0\.0\.2, in loopback/],
  ["http://0x7f.0.0.2/", false, /IP address 127\.0\.0\.2, in loopback/],
  ["http://0177.0.0.2/", false, /IP address 127\.0\.0\.2, in loopback/],
  ["http://017700000002/", false, /IP address 127\.0\.0\.2, in loopback/],
  ["http://127.2/", false, /IP address 127\.0\.0\.2, in loopback/],
  ["http://0/", false, /IP address 0\.0\.0\.0, in the unspecified network/],
  ["http://169.254.169.254/latest/meta-data/", false, /in link-local \(cloud metadata/],
  ["http://10.0.0.5/", false, /in a private network/],
  ["http://172.16.0.1/", false, /in a private network/],
  ["http://192.168.1.1/", false, /in a private network/],
  ["http://100.64.0.1/", false, /carrier-grade NAT/],
  ["https://8.8.8.8/", false, /IP address 8\.8\.8\.8, which is not on the allowlist/],
  ["http://[::1]/", false, /IP address \[::1\], in loopback/],
  ["http://[::]/", false, /unspecified address/],
  ["http://[::ffff:127.0.0.1]/", false, /IP address \[::ffff:7f00:1\], in loopback/],
  ["http://[::ffff:169.254.169.254]/", false, /link-local/],
  ["http://[fe80::1]/", false, /in link-local/],
  ["http://[fd12:3456::1]/", false, /unique local/],
  ["http://localhost:8080/", false, /localhost is this machine/],
  ["http://LOCALHOST./", false, /ends with a dot/],
  ["http://admin.localhost/", false, /admin\.localhost is this machine/],
  // Not URLs at all.
  ["api.example.com/v1", false, /is not an absolute URL/],
  ["//api.example.com/v1", false, /is not an absolute URL/],
  ["", false, /is not an absolute URL/],
  ["https://", false, /is not an absolute URL/],
  ["https://exa mple.com/", false, /is not an absolute URL/],
  ["http://256.1.1.1/", false, /is not an absolute URL/],
  [42, false, /not a URL string/],
  [null, false, /not a URL string/],
];

describe("egress URL checks", () => {
  it("has a table of at least 40 tricky URLs", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(TABLE)("%j allowed: %s", (url, allowed, reason) => {
    const verdict = checkUrl(url, ALLOWLIST);
    expect(verdict.ok).toBe(allowed);
    if (!verdict.ok && reason) expect(verdict.reason).toMatch(reason);
    if (!verdict.ok)
      expect(verdict.reason).toMatch(/allowed: |not an absolute URL|not a URL string|user name|dot|scheme/);
  });

  it("lists what is allowed in a refusal, so the model can pick a URL that works", () => {
    const verdict = checkUrl("https://evil.com/", ALLOWLIST);
    expect(verdict).toEqual({
      ok: false,
      reason:
        "evil.com is not on the allowlist; allowed: api.example.com, *.docs.example.org, http://127.0.0.1:8080, ports.example.com:8443, bücher.example",
    });
  });

  it("reaches IP addresses and localhost only as listed", () => {
    const local = parseAllowlist(agentOwner("dev"), { allow: ["http://localhost:*", "http://[::1]:3000"] });
    expect(checkUrl("http://localhost:5173/", local).ok).toBe(true);
    expect(checkUrl("http://[::1]:3000/", local).ok).toBe(true);
    expect(checkUrl("http://[0:0:0:0:0:0:0:1]:3000/", local).ok).toBe(true);
    expect(checkUrl("http://[::1]:3001/", local).ok).toBe(false);
    expect(checkUrl("http://127.0.0.1:5173/", local).ok).toBe(false);
  });
});

describe("egress allowlist entries", () => {
  it.each([
    ["https://api.example.com/v1", /has a path, a query or a user name/],
    ["user@api.example.com", /has a path, a query or a user name/],
    ["ftp://files.example.com", /names the scheme ftp:/],
    ["*.*.example.com", /"\*" that is not a leading "\*\." label/],
    ["api.*.com", /"\*" that is not a leading/],
    ["api.example.com.", /ends with a dot/],
    ["exa mple.com", /is not a valid host/],
    ["", /is not a host/],
    // Entries that match no host.
    [".example.com", /has an empty label \(two dots in a row, or a leading dot\), so it matches no host/],
    ["api..example.com", /has an empty label/],
    ["https://api..example.com:8443", /has an empty label/],
    ["*.10.0.0.1", /wildcard over an IP address, which matches no host/],
    ["*.[::1]", /wildcard over an IP address/],
    ["*.localhost", /wildcard over localhost, which matches no host/],
    ["*.bücher.example", /wildcard over an internationalised name, which matches no host/],
    // Wildcards over a public suffix, by the Public Suffix List: anyone can register beneath.
    ["*.com", /wildcard over the public suffix "com", under which anyone can register a name \(attacker\.com\)/],
    ["https://*.com:*", /public suffix "com"/],
    ["*.co.uk", /public suffix "co\.uk".*"\*\.example\.co\.uk"/],
    ["*.uk", /public suffix "uk"/],
    ["*.github.io", /public suffix "github\.io"/],
    ["*.s3.amazonaws.com", /public suffix "s3\.amazonaws\.com"/],
    ["*.xn--p1ai", /internationalised name/],
  ])("refuses %j", (entry, message) => {
    expect(() => parseAllowlist(agentOwner("web"), { allow: [entry] })).toThrow(AgentConfigError);
    expect(() => parseAllowlist(agentOwner("web"), { allow: [entry] })).toThrow(message);
  });

  it("takes wildcards under a registrable domain, and over names the list does not know", () => {
    const list = parseAllowlist(agentOwner("web"), {
      allow: ["*.example.co.uk", "*.docs.github.io", "https://*.example.com:*", "*.internal", "*.svc.cluster.local"],
    });
    for (const url of [
      "https://api.example.co.uk/",
      "https://a.docs.github.io/",
      "https://x.example.com:8443/",
      "https://build.internal/",
      "https://db.svc.cluster.local/",
    ]) {
      expect(checkUrl(url, list)).toMatchObject({ ok: true });
    }
    for (const url of ["https://attacker.co.uk/", "https://attacker.github.io/", "https://attacker.com/collect?d=1"]) {
      expect(checkUrl(url, list)).toMatchObject({ ok: false });
    }
  });

  it("refuses a lookup that is not a function", () => {
    const options = { allow: ["api.example.com"], lookup: "8.8.8.8" as unknown as EgressLookup };
    expect(() => parseAllowlist(agentOwner("web"), options)).toThrow(
      'agent "web": egress.lookup must be a function shaped like dns.lookup (hostname, options, callback), got "8.8.8.8". Leave it out to use the system resolver.',
    );
  });

  it("names the agent, the entry and the forms that work", () => {
    expect(() => parseAllowlist(agentOwner("web"), { allow: ["https://a.example.com/x"] })).toThrow(
      'agent "web": egress.allow entry "https://a.example.com/x" has a path, a query or a user name; an entry is only a host and a port. Write a host ("api.example.com"), a wildcard ("*.example.com") or a scheme, host and port ("http://127.0.0.1:8080").',
    );
  });
});
