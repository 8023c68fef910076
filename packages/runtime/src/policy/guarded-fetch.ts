import type { RequestInit as UndiciRequestInit } from "undici";
import { ToolError } from "../errors.js";
import type { EgressAllowlist } from "./egress-allowlist.js";
import { checkUrl } from "./egress-url.js";
import { checkedLookup, PrivateAddressError } from "./resolve-check.js";

/**
 * The `fetch` a tool gets as `ctx.fetch`, held to the egress allowlist of the agent or MCP
 * server it runs in. It is undici's `fetch` (the one Node's global `fetch` is built on):
 * its `Response` has the standard members but is not `instanceof` the global class.
 */
export type ToolFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A `fetch` that checks every URL it would reach against `allowlist`: the first one and
 * each redirect's target, which it follows itself (up to `maxRedirects`) so a listed host
 * cannot bounce the request to one that is not. A refused URL throws a {@link ToolError}
 * whose message says why; the model reads it as the tool's error. Connections go to the
 * addresses a checked lookup resolved, so a listed name that resolves to a private address is
 * refused too (unless `allowPrivateAddresses`). Without an allowlist, `ctx.fetch` refuses
 * every request before it gets here (invoke/tool-fetch.ts).
 * The call's signal aborts requests in flight.
 */
export function guardedFetch(allowlist: EgressAllowlist, signal: AbortSignal): ToolFetch {
  return async (input, init = {}) => {
    const requestSignal = init.signal ? AbortSignal.any([init.signal, signal]) : signal;
    let url = allowed(input, allowlist);
    // Loaded on first use: agents whose tools never fetch do not load undici.
    const { Agent, fetch } = await import("undici");
    const dispatcher = new Agent({
      connect: { lookup: checkedLookup(allowlist.allowPrivateAddresses, allowlist.lookup) },
    });
    let request: RequestInit = { ...init, signal: requestSignal, redirect: "manual" };
    try {
      for (let hops = 0; ; hops++) {
        const response = (await fetch(url.href, { ...(request as UndiciRequestInit), dispatcher }).catch(
          (error: unknown) => {
            throw refusedAddress(error, url) ?? error;
          },
        )) as unknown as Response;
        const location = response.headers.get("location");
        if (!REDIRECTS.has(response.status) || location === null || init.redirect === "manual") return response;
        if (init.redirect === "error")
          throw new ToolError(`ctx.fetch: ${url.href} redirected to ${location}, and redirects were refused.`);
        if (hops >= allowlist.maxRedirects) {
          throw new ToolError(`ctx.fetch: ${url.href} redirected more than ${allowlist.maxRedirects} times; stopped.`);
        }
        await response.body?.cancel();
        const next = allowed(URL.canParse(location, url.href) ? new URL(location, url) : location, allowlist, url);
        request = afterRedirect(request, response.status, next.origin !== url.origin);
        url = next;
      }
    } finally {
      // Closes once the response's body has been read; nothing is kept open between calls.
      void dispatcher.close();
    }
  };
}

/** The lookup's refusal, as the tool error the model reads; undefined for other failures. */
function refusedAddress(error: unknown, url: URL): ToolError | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  if (!(cause instanceof PrivateAddressError)) return undefined;
  return new ToolError(`ctx.fetch refused ${url.href}: ${cause.message}.`, { cause });
}

function allowed(target: string | URL, allowlist: EgressAllowlist, from?: URL): URL {
  const verdict = checkUrl(target, allowlist);
  if (verdict.ok) return verdict.url;
  const what = from ? `${from.href} redirected to ${String(target)}, which was refused` : `refused ${String(target)}`;
  throw new ToolError(`ctx.fetch ${what}: ${verdict.reason}.`);
}

/**
 * What a browser sends after a redirect: 303 (and 301/302 after a POST) turn into a GET
 * without a body, and credentials are not carried to another origin.
 */
function afterRedirect(request: RequestInit, status: number, crossOrigin: boolean): RequestInit {
  let next = request;
  if (crossOrigin && request.headers) {
    const headers = new Headers(request.headers);
    for (const name of ["authorization", "cookie", "proxy-authorization"]) headers.delete(name);
    next = { ...next, headers };
  }
  const method = (request.method ?? "GET").toUpperCase();
  if (status === 303 ? method === "HEAD" : !(method === "POST" && (status === 301 || status === 302))) return next;
  const { body: _body, ...rest } = next;
  return { ...rest, method: "GET" };
}
