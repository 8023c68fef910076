import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";

/** Who may reach a Streamable HTTP endpoint: the options of `serveMcpHttp` this file enforces. */
export interface McpAccessOptions {
  /**
   * `Host` headers to accept, e.g. `["mcp.example.com"]`; others get 403. This guards a
   * local server against DNS rebinding (a web page's script reaching it under another
   * name). Default: on a loopback host, `127.0.0.1`, `localhost` and `[::1]` at the port;
   * on any other host, every name.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Origins whose pages may call the server, e.g. `["https://inspector.example.com"]`. A
   * browser sends `Origin` with every cross-site request; one not listed gets 403, so a
   * page the user happens to visit cannot drive the tools. `"null"` (sandboxed frames,
   * `file:` pages) passes only when listed. Requests without `Origin` (any non-browser
   * client) are not affected. Default: the server's own loopback origins,
   * `http://127.0.0.1:<port>`, `http://localhost:<port>` and `http://[::1]:<port>`.
   * Listed origins also get the CORS headers a browser needs to read the answers.
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * A secret every request must carry as `Authorization: Bearer <token>`; any other request
   * gets 401 with `WWW-Authenticate`. Compared in constant time, never logged. Give it from
   * the environment, not the source. Not with `authorize`.
   */
  readonly bearerToken?: string;
  /**
   * Decides, per HTTP request, whether it may reach the tools (the resource-server side of
   * MCP authorization, e.g. validating an OAuth access token): return the token's
   * `AuthInfo` to let it in (tools read it as `mcpSession(ctx).authInfo`, and a session
   * stays with the `clientId` that opened it), `undefined` to answer 401. Not with `bearerToken`.
   */
  readonly authorize?: (request: IncomingMessage) => AuthInfo | undefined | Promise<AuthInfo | undefined>;
  /**
   * Where clients find this server's OAuth protected resource metadata (RFC 9728), sent as
   * `resource_metadata` in every 401's `WWW-Authenticate`, as MCP authorization asks.
   */
  readonly resourceMetadataUrl?: string | URL;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** Headers a browser client sends that the endpoint reads; allowed in CORS preflights. */
const REQUEST_HEADERS = "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id";
/** Headers of an answer a browser client must be able to read. */
const EXPOSED_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate";

/** A JSON-RPC error as an HTTP answer (no id: it may not even be JSON-RPC that came in). */
export function rpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { ...headers, "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** An origin as browsers write it (`scheme://host[:port]`, default port left out), or the literal `"null"`. */
function normalisedOrigin(origin: string): string | undefined {
  if (origin === "null") return origin;
  try {
    const url = new URL(origin);
    return url.origin === "null" ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case), if that is what it holds. */
function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(header ?? "");
  return match?.[1];
}

/** What {@link endpointAccess} decided about one request. */
export type AccessVerdict =
  /** Answered already (403, 401, a CORS preflight): nothing more to do. */
  | { readonly answered: true }
  /** May go on; `owner` is whom a session it opens belongs to. */
  | { readonly answered: false; readonly owner: string };

/** The checks every request to the endpoint passes first, in this order: Host, Origin, credentials. */
export interface EndpointAccess {
  check(req: IncomingMessage, res: ServerResponse): Promise<AccessVerdict>;
}

/**
 * Checks the options now (a mistake is thrown before the server listens) and gives the
 * endpoint's gate for the port it listens on. Host (DNS rebinding) and Origin (a web
 * page reaching a local server) are refused with 403, as the MCP transport specification
 * asks; missing or wrong credentials get 401 with a `WWW-Authenticate` challenge that says
 * what is wanted and never echoes what was sent.
 */
export function endpointAccess(options: McpAccessOptions, host: string): (port: number) => EndpointAccess {
  if (options.bearerToken !== undefined && options.authorize) {
    throw new TypeError(
      "serveMcpHttp: give bearerToken or authorize, not both. For a token and more checks, compare the token in authorize.",
    );
  }
  if (options.bearerToken !== undefined && options.bearerToken.trim() === "") {
    throw new TypeError(
      "serveMcpHttp: bearerToken is empty; every request would need an empty secret. Set a real one.",
    );
  }
  const listed = (options.allowedOrigins ?? []).map((origin) => {
    const normal = normalisedOrigin(origin);
    if (normal === undefined) {
      throw new TypeError(
        `serveMcpHttp: allowedOrigins entry "${origin}" is not an origin; write it as scheme://host[:port], e.g. "https://app.example.com".`,
      );
    }
    return normal;
  });
  const expected = options.bearerToken === undefined ? undefined : digest(options.bearerToken);
  const metadata =
    options.resourceMetadataUrl === undefined ? "" : `, resource_metadata="${options.resourceMetadataUrl}"`;

  function refuse(res: ServerResponse, presented: boolean, why: string): void {
    const error = presented ? `, error="invalid_token", error_description="${why}"` : "";
    rpcError(res, 401, -32001, `Unauthorized: ${why}`, { "www-authenticate": `Bearer realm="mcp"${error}${metadata}` });
  }

  async function credentials(req: IncomingMessage): Promise<{ info?: AuthInfo; why?: string }> {
    const token = bearerOf(req.headers.authorization);
    if (expected) {
      if (token === undefined) return { why: "this server wants Authorization: Bearer <token>" };
      return timingSafeEqual(digest(token), expected) ? {} : { why: "the bearer token is not valid" };
    }
    if (!options.authorize) return {};
    const info = await options.authorize(req);
    if (info) return { info };
    return { why: token === undefined ? "this server wants credentials" : "the credentials were refused" };
  }

  return (port) => {
    const hosts = options.allowedHosts
      ? new Set(options.allowedHosts)
      : LOOPBACK.has(host)
        ? new Set(LOOPBACK_NAMES.map((name) => `${name}:${port}`))
        : undefined;
    const origins = new Set(options.allowedOrigins ? listed : LOOPBACK_NAMES.map((name) => `http://${name}:${port}`));
    return { check: (req, res) => check(hosts, origins, req, res) };
  };

  async function check(
    hosts: ReadonlySet<string> | undefined,
    origins: ReadonlySet<string>,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<AccessVerdict> {
    const hostHeader = req.headers.host ?? "";
    if (hosts && !hosts.has(hostHeader)) {
      rpcError(res, 403, -32000, `Forbidden: Host "${hostHeader}" is not one this server answers to.`);
      return { answered: true };
    }
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const normal = normalisedOrigin(origin);
      if (normal === undefined || !origins.has(normal)) {
        rpcError(
          res,
          403,
          -32000,
          `Forbidden: Origin "${origin}" may not call this server. Add it to allowedOrigins (--allow-origin) to let its pages in.`,
        );
        return { answered: true };
      }
      // Set before anything is written: the SDK's own writeHead keeps them.
      res.setHeader("access-control-allow-origin", origin);
      res.setHeader("access-control-expose-headers", EXPOSED_HEADERS);
      res.setHeader("vary", "Origin");
      if (req.method === "OPTIONS") {
        res.writeHead(204, {
          "access-control-allow-methods": "GET, POST, DELETE",
          "access-control-allow-headers": REQUEST_HEADERS,
          "access-control-max-age": "600",
        });
        res.end();
        return { answered: true };
      }
    }
    let verdict: { info?: AuthInfo; why?: string };
    try {
      verdict = await credentials(req);
    } catch {
      // The hook's own failure: the client learns nothing of it, and is not let in.
      rpcError(res, 500, -32603, "Internal error: the server could not check the credentials.");
      return { answered: true };
    }
    const { info, why } = verdict;
    if (why !== undefined) {
      refuse(res, req.headers.authorization !== undefined, why);
      return { answered: true };
    }
    // The SDK's transport hands `req.auth` to handlers as `extra.authInfo`.
    if (info) (req as IncomingMessage & { auth?: AuthInfo }).auth = info;
    return { answered: false, owner: info?.clientId ?? "" };
  }
}
