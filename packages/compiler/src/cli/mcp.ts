import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type PolicyOptions, type Tool, type ToolInput, toolsOf } from "toolwright";
import { type OptionValues, parseOptions } from "./args.js";
import { type Command, type CommandIO, UsageError } from "./command.js";

const usage = `usage: toolwright mcp <module.js> [--name <name>] [--version <version>] [--deps <module.js>]
                     [--egress <hosts>] [--allow-private-addresses] [--max-redirects <n>]
                     [--approve <tier>] [--trifecta <action>]
                     [--http <port>] [--host <host>] [--allow-origin <origins>] [--token-env <NAME>]

Serves the tools a built module exports over MCP, on stdio (what MCP hosts launch) or, with
--http, on Streamable HTTP. Exported tools, arrays of tools and objects with @tool methods
are served; the same tool exported twice is served once.
  --name          the server's name (default: the nearest package.json's name, else the file's)
  --version       the server's version (default: that package.json's version, else 0.0.0)
  --deps          a module whose default export (or export named deps) is the tools' ctx.deps,
                  or a function, possibly async, that returns them

The tools' security policy, as an Agent takes it (docs/security.md):
  --egress        hosts the tools may reach (ctx.fetch, and @egress URL arguments checked
                  before the call), comma-separated: api.example.com,*.docs.example.org,
                  http://127.0.0.1:8080 (default: none, so every request is refused)
  --allow-private-addresses
                  with --egress: let listed names resolve to loopback and private addresses
  --max-redirects with --egress: redirects ctx.fetch follows, each checked (default 5)
  --approve       which calls wait for a person's yes, asked through MCP elicitation:
                  never (default: only tools that ask themselves), destructive,
                  side-effects or always
  --trifecta      a call that would give one client session private data, untrusted
                  content and a way to send data out: refuse (default), approve or allow

Streamable HTTP:
  --http          serve Streamable HTTP on this port (0 picks one) instead of stdio
  --host          the address to listen on with --http (default 127.0.0.1)
  --allow-origin  with --http: origins whose pages may call the server, comma-separated
                  (default: the server's own loopback origins; others get 403)
  --token-env     with --http: the environment variable holding the bearer token every
                  request must carry (Authorization: Bearer <token>); others get 401

MCP host configuration (e.g. claude_desktop_config.json):
  { "mcpServers": { "weather": { "command": "npx", "args": ["toolwright", "mcp", "dist/tools.js"] } } }`;

const OPTIONS = {
  name: { type: "string" },
  version: { type: "string" },
  deps: { type: "string" },
  egress: { type: "string" },
  "allow-private-addresses": { type: "boolean" },
  "max-redirects": { type: "string" },
  approve: { type: "string" },
  trifecta: { type: "string" },
  http: { type: "string" },
  host: { type: "string" },
  "allow-origin": { type: "string" },
  "token-env": { type: "string" },
} as const;

type Values = OptionValues<typeof OPTIONS>;

function isTool(value: unknown): value is Tool {
  const candidate = value as Partial<Tool> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.name === "string" &&
    typeof candidate.execute === "function" &&
    typeof candidate.parameters === "object"
  );
}

/** What the compiler writes for a bare function in a tool list: `{ fn, spec }`. */
function isCompiledFunction(value: unknown): boolean {
  const candidate = value as { fn?: unknown; spec?: { $toolwright?: unknown } } | null;
  return typeof candidate?.fn === "function" && candidate.spec?.$toolwright !== undefined;
}

/** Every tool a module exports, in export order, each once. */
export function exportedTools(exports: Readonly<Record<string, unknown>>): ToolInput[] {
  const found = new Set<ToolInput>();
  for (const value of Object.values(exports)) {
    if (isTool(value)) found.add(value);
    else if (Array.isArray(value)) {
      for (const item of value) if (isTool(item) || isCompiledFunction(item)) found.add(item as ToolInput);
    } else if (typeof value === "object" && value !== null) {
      for (const method of toolsOf(value)) found.add(method);
    }
  }
  return [...found];
}

/** The names of tools whose `ToolContext<Deps>` asks for deps (the compiler marks their context slot). */
export function toolsNeedingDeps(tools: readonly ToolInput[]): string[] {
  const names: string[] = [];
  for (const input of tools) {
    const slots = (input as { slots?: readonly { kind: string; deps?: boolean }[] }).slots;
    const name = (input as { name?: unknown }).name;
    if (typeof name === "string" && slots?.some((slot) => slot.kind === "context" && slot.deps === true)) {
      names.push(name);
    }
  }
  return names;
}

/** The deps a `--deps` module gives: its default export or its `deps` export, called when it is a function. */
async function loadDeps(entry: string, cwd: string): Promise<unknown> {
  const file = path.resolve(cwd, entry);
  if (!existsSync(file))
    throw new UsageError(`--deps: no file ${file}. Pass the built .js module that exports the deps.`);
  const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const given = "default" in exports ? exports.default : exports.deps;
  if (given === undefined) {
    throw new UsageError(
      `--deps: ${entry} exports neither a default nor "deps". Export the deps object, or a function that returns it: ` +
        "export default async () => ({ db: await connect() }).",
    );
  }
  return typeof given === "function" ? await (given as () => unknown)() : given;
}

/** The `--http` server's access options: allowed origins and the bearer token, read from the environment. */
function httpAccess(values: Values): { allowedOrigins?: string[]; bearerToken?: string } {
  const origins = values["allow-origin"]
    ?.split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  const variable = values["token-env"];
  if (variable === undefined) return origins ? { allowedOrigins: origins } : {};
  const token = process.env[variable];
  if (!token?.trim()) {
    throw new UsageError(
      `--token-env ${variable}: the environment variable ${variable} is not set or empty. Set it to the secret clients must send.`,
    );
  }
  return { ...(origins ? { allowedOrigins: origins } : {}), bearerToken: token };
}

/** The policy options the flags give; the server checks them when it is made. */
function policyOf(values: Values): PolicyOptions {
  const hosts = values.egress;
  for (const option of ["allow-private-addresses", "max-redirects"] as const) {
    if (values[option] !== undefined && hosts === undefined) {
      throw new UsageError(`--${option} applies to the egress allowlist: add --egress <hosts>.`);
    }
  }
  const redirects = values["max-redirects"];
  if (redirects !== undefined && !/^\d+$/.test(redirects)) {
    throw new UsageError(`--max-redirects takes a whole number, got '${redirects}'.`);
  }
  const allow = hosts
    ?.split(",")
    .map((host) => host.trim())
    .filter(Boolean);
  if (allow?.length === 0)
    throw new UsageError("--egress takes hosts, comma-separated, e.g. --egress api.example.com.");
  return {
    ...(values.approve === undefined ? {} : { approve: values.approve as PolicyOptions["approve"] }),
    ...(values.trifecta === undefined ? {} : { trifecta: values.trifecta as PolicyOptions["trifecta"] }),
    ...(allow === undefined
      ? {}
      : {
          egress: {
            allow,
            ...(values["allow-private-addresses"] === true ? { allowPrivateAddresses: true } : {}),
            ...(redirects === undefined ? {} : { maxRedirects: Number(redirects) }),
          },
        }),
  };
}

/** The start line's note of the policy flags given, e.g. `; egress: api.example.com; approve: destructive`. */
function policyNote(policy: PolicyOptions): string {
  const parts = [
    policy.egress && `egress: ${policy.egress.allow.join(", ")}`,
    policy.approve && `approve: ${policy.approve}`,
    policy.trifecta && `trifecta: ${policy.trifecta}`,
  ];
  return parts
    .filter(Boolean)
    .map((part) => `; ${part}`)
    .join("");
}

/** The name and version of the package the entry belongs to, from the nearest package.json. */
function packageOf(entry: string): { name?: string; version?: string } {
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      return { name: pkg.name?.replace(/^@[^/]+\//, ""), version: pkg.version };
    }
    if (path.dirname(dir) === dir) return {};
  }
}

async function loadMcp(): Promise<typeof import("toolwright/mcp")> {
  try {
    return await import("toolwright/mcp");
  } catch (error) {
    if (String(error).includes("@modelcontextprotocol/sdk")) {
      throw new Error(
        "serving MCP needs the official MCP SDK, an optional dependency of toolwright. " +
          "Install it in your project: npm install @modelcontextprotocol/sdk@1.32.2",
      );
    }
    throw error;
  }
}

async function serve(entry: string, values: Values, io: CommandIO): Promise<number> {
  if (values.http !== undefined && !/^\d+$/.test(values.http)) {
    throw new UsageError(`--http takes a port number, got '${values.http}'.`);
  }
  for (const option of ["allow-origin", "token-env", "host"] as const) {
    if (values[option] !== undefined && values.http === undefined) {
      throw new UsageError(`--${option} applies to Streamable HTTP: add --http <port>.`);
    }
  }
  const policy = policyOf(values);
  const file = path.resolve(io.cwd, entry);
  if (!existsSync(file)) {
    throw new UsageError(
      `no file ${file}. Build the project first (tspc or tsc with the transformer) and pass the built .js file.`,
    );
  }
  const tools = exportedTools((await import(pathToFileURL(file).href)) as Record<string, unknown>);
  if (tools.length === 0) {
    io.err(
      `toolwright mcp: ${entry} exports no tools. Export tools made with tool(), an array of them, ` +
        "or an object with @tool methods.\n",
    );
    return 1;
  }
  const needing = toolsNeedingDeps(tools);
  if (needing.length > 0 && values.deps === undefined) {
    io.err(
      `toolwright mcp: warning: ${needing.map((n) => `"${n}"`).join(", ")} ${needing.length === 1 ? "takes" : "take"} ` +
        "ToolContext<Deps> and no --deps was given, so ctx.deps is undefined in every call. " +
        "Pass --deps <module.js> (its default export, or a function returning the deps).\n",
    );
  }
  const deps = values.deps === undefined ? undefined : await loadDeps(values.deps, io.cwd);
  const pkg = packageOf(file);
  const { serveMcp } = await loadMcp();
  const port = values.http;
  const access = port === undefined ? {} : httpAccess(values);
  const handle = await serveMcp(tools, {
    name: values.name ?? pkg.name ?? path.basename(file, path.extname(file)),
    version: values.version ?? pkg.version ?? "0.0.0",
    ...(deps === undefined ? {} : { deps }),
    ...policy,
    transport:
      port === undefined ? "stdio" : { http: { port: Number(port), host: values.host ?? "127.0.0.1", ...access } },
  });
  // Over stdio, stdout is the protocol: everything for people goes to stderr. The token is never printed.
  const guarded = access.bearerToken === undefined ? "" : ` (bearer token from $${values["token-env"]})`;
  io.err(
    `toolwright mcp: serving ${tools.length} tools from ${entry}${handle.url ? ` on ${handle.url}${guarded}` : " over stdio"}${policyNote(policy)}\n`,
  );
  await handle.closed;
  return 0;
}

/** `toolwright mcp <module>`: serves a built module's tools to MCP clients. */
export const mcp: Command = {
  summary: "serve the tools a built module exports over MCP (stdio, or Streamable HTTP with --http)",
  usage,
  async run(args, io) {
    const [entry, ...rest] = args;
    if (!entry || entry.startsWith("-")) throw new UsageError("name the built module to serve, e.g. dist/tools.js.");
    const values = parseOptions(rest, OPTIONS);
    return serve(entry, values, io);
  },
};
