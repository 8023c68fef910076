import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ToolError } from "../../src/index.js";
import { parseAllowlist } from "../../src/policy/egress-allowlist.js";
import { guardedFetch } from "../../src/policy/guarded-fetch.js";
import { agentOwner } from "../../src/policy/owner.js";
import { checkedLookup, type EgressLookup } from "../../src/policy/resolve-check.js";

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

/** A loopback server answering by path: `/ok`, or `/to?url=<target>&status=<3xx>` redirecting there. */
async function start(seen: Seen[]): Promise<{ server: Server; base: string }> {
  const server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      seen.push({ method: req.method ?? "", path: url.pathname, authorization: req.headers.authorization, body });
      if (url.pathname === "/to") {
        res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("url") ?? "/" });
        res.end();
        return;
      }
      if (url.pathname === "/loop") {
        res.writeHead(302, { location: "/loop" }).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end(`hello from ${url.pathname}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

const never = new AbortController().signal;

/** A resolver answering from a table (no DNS), recording the names it was asked. */
function resolver(table: Record<string, string[]>, asked: string[]): EgressLookup {
  return (hostname, _options, callback) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses) return callback(Object.assign(new Error(`no such host ${hostname}`), { code: "ENOTFOUND" }), []);
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
  };
}

/** What the connection's checked lookup answers for the one name in `table`. */
function answers(table: Record<string, string[]>): Promise<unknown> {
  const lookup = checkedLookup(false, resolver(table, []));
  return new Promise((resolve, reject) =>
    lookup(Object.keys(table)[0] as string, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );
}

describe("ctx.fetch", () => {
  it("fetches a listed host and follows a redirect that stays on the list", async () => {
    const seen: Seen[] = [];
    const { base } = await start(seen);
    const fetch = guardedFetch(parseAllowlist(agentOwner("t"), { allow: [base] }), never);
    const response = await fetch(`${base}/to?url=/ok`);
    expect(await response.text()).toBe("hello from /ok");
    expect(seen.map((s) => s.path)).toEqual(["/to", "/ok"]);
  });

  it("refuses a redirect to a host off the list, before any request reaches it", async () => {
    const seenA: Seen[] = [];
    const seenB: Seen[] = [];
    const a = await start(seenA);
    const b = await start(seenB);
    const fetch = guardedFetch(parseAllowlist(agentOwner("t"), { allow: [a.base] }), never);
    const error = await fetch(`${a.base}/to?url=${encodeURIComponent(`${b.base}/ok`)}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).message).toBe(
      `ctx.fetch ${a.base}/to?url=${encodeURIComponent(`${b.base}/ok`)} redirected to ${b.base}/ok, which was refused: ` +
        `127.0.0.1 is allowed only as ${a.base}, and this URL uses http on port ${new URL(b.base).port}; allowed: ${a.base}.`,
    );
    expect(seenB).toEqual([]);
  });

  it("refuses redirects to this machine's other names and to metadata addresses", async () => {
    const seen: Seen[] = [];
    const { base } = await start(seen);
    const fetch = guardedFetch(parseAllowlist(agentOwner("t"), { allow: [base] }), never);
    // 2130706433 is 127.0.0.1, but on port 80, not the listed port.
    for (const target of ["http://localhost/", "http://169.254.169.254/latest/meta-data/", "http://2130706433/"]) {
      const error = await fetch(`${base}/to?url=${encodeURIComponent(target)}`).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/, which was refused: (its host|127\.0\.0\.1 is allowed only as)/);
    }
  });

  it("refuses the first URL when it is not listed, sending nothing", async () => {
    const seen: Seen[] = [];
    const { base } = await start(seen);
    const fetch = guardedFetch(parseAllowlist(agentOwner("t"), { allow: ["api.example.com"] }), never);
    await expect(fetch(`${base}/ok`)).rejects.toThrow(
      `ctx.fetch refused ${base}/ok: its host is the IP address 127.0.0.1, in loopback (this machine), which is not on the allowlist; allowed: api.example.com.`,
    );
    expect(seen).toEqual([]);
  });

  it("stops after maxRedirects", async () => {
    const seen: Seen[] = [];
    const { base } = await start(seen);
    const fetch = guardedFetch(parseAllowlist(agentOwner("t"), { allow: [base], maxRedirects: 2 }), never);
    await expect(fetch(`${base}/loop`)).rejects.toThrow(
      `ctx.fetch: ${base}/loop redirected more than 2 times; stopped.`,
    );
    expect(seen).toHaveLength(3);
  });

  it("turns a POST answered by 303 into a GET without a body, and keeps credentials off another origin", async () => {
    const seenA: Seen[] = [];
    const seenB: Seen[] = [];
    const a = await start(seenA);
    const b = await start(seenB);
    const fetch = guardedFetch(parseAllowlist(agentOwner("t"), { allow: [a.base, b.base] }), never);
    const response = await fetch(`${a.base}/to?status=303&url=${encodeURIComponent(`${b.base}/ok`)}`, {
      method: "POST",
      body: "secret=1",
      headers: { authorization: "Bearer t0ken" },
    });
    expect(await response.text()).toBe("hello from /ok");
    expect(seenA).toEqual([{ method: "POST", path: "/to", authorization: "Bearer t0ken", body: "secret=1" }]);
    expect(seenB).toEqual([{ method: "GET", path: "/ok", authorization: undefined, body: "" }]);
  });

  it('hands a redirect back as it is under redirect: "manual"', async () => {
    const seen: Seen[] = [];
    const { base } = await start(seen);
    const fetch = guardedFetch(parseAllowlist(agentOwner("t"), { allow: [base] }), never);
    const response = await fetch(`${base}/to?url=http://evil.example/`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://evil.example/");
  });

  it("refuses a listed name that resolves to a private address, connecting nowhere", async () => {
    const seen: Seen[] = [];
    const { base } = await start(seen);
    const port = new URL(base).port;
    const lookups: string[] = [];
    const fetch = guardedFetch(
      parseAllowlist(agentOwner("t"), {
        allow: [`http://intranet.test:${port}`],
        lookup: resolver({ "intranet.test": ["127.0.0.1"] }, lookups),
      }),
      never,
    );
    await expect(fetch(`http://intranet.test:${port}/ok`)).rejects.toThrow(
      `ctx.fetch refused http://intranet.test:${port}/ok: intranet.test resolves to 127.0.0.1, in loopback (this machine), which the allowlist does not reach.`,
    );
    expect(lookups).toEqual(["intranet.test"]);
    expect(seen).toEqual([]);
  });

  it("refuses a name when any of its addresses is private (a rebinding record set)", async () => {
    const fetch = guardedFetch(
      parseAllowlist(agentOwner("t"), {
        allow: ["http://mixed.test"],
        lookup: resolver({ "mixed.test": ["93.184.215.14", "169.254.169.254"] }, []),
      }),
      never,
    );
    await expect(fetch("http://mixed.test/")).rejects.toThrow(
      /mixed\.test resolves to 169\.254\.169\.254, in link-local/,
    );
  });

  // IPv6 answers, plain and IPv4-mapped, as a resolver gives them for AAAA records. The
  // lookup is called alone: a refusal it misses must not become a connection.
  it.each([
    ["::1", /resolves to ::1, in loopback/],
    ["::ffff:127.0.0.1", /resolves to ::ffff:127\.0\.0\.1, in loopback/],
    ["::ffff:7f00:1", /resolves to ::ffff:7f00:1, in loopback/],
    ["::ffff:169.254.169.254", /resolves to ::ffff:169\.254\.169\.254, in link-local/],
    ["::ffff:10.1.2.3", /in a private network/],
    ["::", /in the unspecified address/],
    ["fe80::1", /in link-local/],
    ["fd00:ec2::254", /in a private network \(unique local/],
    // A mapped address is no normal DNS answer: refused even when the IPv4 address is public.
    ["::ffff:93.184.215.14", /in an IPv4-mapped address/],
  ])("refuses a listed name whose IPv6 answer %s is special", async (address, reason) => {
    await expect(answers({ "v6.test": ["93.184.215.14", "2606:4700:4700::1111", address] })).rejects.toThrow(reason);
  });

  it("passes public IPv6 answers to the connection as they are", async () => {
    await expect(answers({ "public.test": ["2606:4700:4700::1111", "93.184.215.14"] })).resolves.toEqual([
      { address: "2606:4700:4700::1111", family: 6 },
      { address: "93.184.215.14", family: 4 },
    ]);
  });

  it("connects to the address it checked, and reaches private addresses under allowPrivateAddresses", async () => {
    const seen: Seen[] = [];
    const { base } = await start(seen);
    const port = new URL(base).port;
    const fetch = guardedFetch(
      parseAllowlist(agentOwner("t"), {
        allow: [`http://intranet.test:${port}`],
        allowPrivateAddresses: true,
        lookup: resolver({ "intranet.test": ["127.0.0.1"] }, []),
      }),
      never,
    );
    const response = await fetch(`http://intranet.test:${port}/ok`);
    expect(await response.text()).toBe("hello from /ok");
    expect(seen.map((s) => s.path)).toEqual(["/ok"]);
  });
});
