import { createRequire } from "node:module";
import { totalmem } from "node:os";
import { join } from "node:path";
import type * as Sync from "typescript-7/unstable/sync";

/**
 * Where the API process reads a file from instead of the disk (an editor's unsaved
 * buffer): its text, or undefined to read the disk.
 */
export type FileOverlay = (fileName: string) => string | undefined;

/** How TypeScript 7's API process is started: its folder, its files' overlay, whether it keeps timing, how long it lives. */
export interface ApiProcessSettings {
  readonly cwd: string;
  readonly tsconfig: string;
  readonly collectTiming?: boolean;
  readonly overlay?: FileOverlay;
  /** The process answers one run and ends (`gen`, `build`), unlike `gen --watch`'s or the editor's: see {@link spawnApi}. */
  readonly oneRun?: boolean;
}

/** The memory this process may use: the machine's, or its container's limit when lower. */
function memory(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  return limit > 0 ? Math.min(limit, totalmem()) : totalmem();
}

/**
 * Starts the API process of `settings`: `spawn` is given the client's options and starts it,
 * taking this process's environment, which is the one a process of `settings` gets while
 * `spawn` runs. One that answers a single run has its Go collector run less often,
 * `GOGC=400` within half the memory (the machine's, or the container's when lower:
 * `GOMEMLIMIT`): most of what it allocates, the program's syntax trees and symbols, stays
 * live to its end, and the default collector, starting from a 4 MB heap, ran over and over
 * while the program loaded (a cold run at 1,000 tools 1,309 -> 1,167 ms, docs/benchmarks.md;
 * the process's peak memory the same, 144 MB). A GOGC or GOMEMLIMIT of the user's own is
 * kept, and this process's environment is as it was once `spawn` returns.
 */
export function spawnApi<T>(settings: ApiProcessSettings, spawn: (options: Sync.APIOptions) => T): T {
  const { overlay } = settings;
  const options: Sync.APIOptions = {
    cwd: settings.cwd,
    ...(settings.collectTiming ? { collectTiming: true } : {}),
    ...(overlay ? { fs: { readFile: overlay } } : {}),
  };
  const tuned: Record<string, string> = settings.oneRun
    ? { GOGC: "400", GOMEMLIMIT: `${Math.floor(memory() / 2 / 1024 / 1024)}MiB` }
    : {};
  const set = Object.keys(tuned).filter((name) => process.env[name] === undefined);
  for (const name of set) process.env[name] = tuned[name];
  try {
    return spawn(options);
  } finally {
    for (const name of set) delete process.env[name];
  }
}

/**
 * Kills the process of an API object or client at once (where 7.0's client keeps it,
 * `client.channel.child`; nothing in any other shape). 7.0's close() ends the process with
 * SIGTERM while it may still be reading its closed stdin, and the process then prints
 * "context canceled" on the stderr it shares with ours (1 close in 15-40 here): a user's
 * clean build would end with that line. Called before close(), when nothing is left to ask.
 */
export function killApiProcess(owner: unknown): void {
  const holder = owner as { client?: { channel?: unknown }; channel?: unknown };
  const channel = (holder.client?.channel ?? holder.channel) as { child?: { kill?: unknown } } | undefined;
  const child = channel?.child;
  if (typeof child?.kill === "function") (child as { kill(signal: "SIGKILL"): boolean }).kill("SIGKILL");
}

/**
 * The one release whose client {@link StartedApi} reaches into. Its private parts (the
 * channel's framing, the API object's fields) are no contract: on any other release the
 * process starts the plain way, when the derivation's modules are loaded.
 */
const EARLY_RELEASE = "7.0.2";

/** What {@link StartedApi} touches of 7.0.2's client, checked before it is used. */
interface Channel {
  readonly child: { readonly stdout: { readonly _handle?: { readStop?: () => unknown } } | null };
  writeTuple(type: number, name: Buffer, payload: string | Uint8Array): void;
  getMethodBuf(method: string): Buffer;
}
interface Client {
  readonly channel: Channel;
  close(): void;
}
type ClientClass = new (options: Sync.APIOptions) => Client;
type SourceFileCacheClass = new () => object;
type InternalApiClass = new (client: Client, ensureInitialized: () => void) => object;
interface ApiFields {
  client: Client;
  sourceFileCache: object;
  initialized: boolean;
  activeSnapshots: Set<unknown>;
  latestSnapshot: undefined;
  internal: object;
  ensureInitialized(): void;
}

/** Ends a client and its process, killed first (see {@link killApiProcess}). */
function end(client: Client): void {
  killApiProcess(client);
  client.close();
}

/** The channel's message type of a request (syncChannel.js, `MSG_REQUEST`). */
const REQUEST = 1;

/**
 * TypeScript 7's API process, started and asked to load the project before the rest of the
 * API client and the derivation's modules are loaded, so the program's load (150-230 ms on
 * the bench projects) runs while this process loads them (60-80 ms). The sync client asks
 * and waits in one step; here the first two requests (`initialize`, then `updateSnapshot`
 * opening the tsconfig) are written at the start, and the API object built later around the
 * same client reads their answers instead of asking again ({@link adopt}).
 *
 * @example
 * ```ts
 * const started = StartedApi.start(dir, "7.0.2", settings); // undefined on another release
 * // ... load the API's modules ...
 * const api = started?.adopt(sync) ?? spawnApi(settings, (options) => new sync.API(options));
 * const snapshot = api.updateSnapshot({ openProject: settings.tsconfig }); // answered, not asked
 * ```
 */
export class StartedApi {
  private adopted = false;

  private constructor(
    private readonly client: Client,
    private readonly dir: string,
    readonly settings: ApiProcessSettings,
  ) {}

  /**
   * Starts the API process of the TypeScript 7 package in `dir` and sends it the requests
   * that load `settings.tsconfig`; undefined (nothing started) on any release but
   * {@link EARLY_RELEASE}, on Windows, or when its client is not in the shape this reaches into.
   */
  static start(dir: string, version: string, settings: ApiProcessSettings): StartedApi | undefined {
    // Windows' client talks over a named pipe, not the child's stdio this handles (and is untested here).
    if (version !== EARLY_RELEASE || process.platform === "win32") return undefined;
    // The client and its framing only (a handful of modules); the API's other 50 modules load later.
    const require = createRequire(join(dir, "package.json"));
    const { Client } = require(join(dir, "dist/api/sync/client.js")) as { Client?: ClientClass };
    const { toUpdateSnapshotRequest } = require(join(dir, "dist/api/proto.js")) as {
      toUpdateSnapshotRequest?: (params: { openProject: string }) => unknown;
    };
    if (typeof Client !== "function" || typeof toUpdateSnapshotRequest !== "function") return undefined;
    const client = spawnApi(settings, (options) => new Client(options));
    const { channel } = client;
    const stdout = channel?.child?.stdout?._handle;
    const framed = typeof channel?.writeTuple === "function" && typeof channel.getMethodBuf === "function";
    if (!framed || typeof stdout?.readStop !== "function") {
      end(client);
      return undefined;
    }
    // The client reads its answers with readSync. Node's own reading of the pipe, which
    // takes what arrives while this process waits on a module, is stopped.
    stdout.readStop();
    const request = (method: string, params: unknown) =>
      channel.writeTuple(REQUEST, channel.getMethodBuf(method), JSON.stringify(params));
    request("initialize", null);
    request("updateSnapshot", toUpdateSnapshotRequest({ openProject: settings.tsconfig }));
    return new StartedApi(client, dir, settings);
  }

  /**
   * The API object around the started process, made of `sync` (the package's full client)
   * as its constructor would make it: its first `initialize` and `updateSnapshot` opening the
   * tsconfig are answered by what the process was sent at the start, and must be the first
   * two requests. Undefined, the process ended, when `sync` is not the shape this builds.
   */
  adopt(sync: typeof Sync): Sync.API | undefined {
    if (this.adopted) throw new Error("toolwright: an early-started TypeScript API process adopted twice.");
    this.adopted = true;
    const require = createRequire(join(this.dir, "package.json"));
    const { SourceFileCache } = require(join(this.dir, "dist/api/sourceFileCache.js")) as {
      SourceFileCache?: SourceFileCacheClass;
    };
    const { InternalAPI } = sync as unknown as { InternalAPI?: InternalApiClass };
    const prototype = sync.API.prototype as unknown as Partial<ApiFields>;
    if (
      typeof SourceFileCache !== "function" ||
      typeof InternalAPI !== "function" ||
      typeof prototype.ensureInitialized !== "function"
    ) {
      end(this.client);
      return undefined;
    }
    const api = Object.create(sync.API.prototype) as ApiFields;
    api.client = this.client;
    api.sourceFileCache = new SourceFileCache();
    api.initialized = false;
    api.activeSnapshots = new Set();
    api.latestSnapshot = undefined;
    api.internal = new InternalAPI(this.client, () => api.ensureInitialized());
    this.answerFirstRequests();
    return api as unknown as Sync.API;
  }

  /** Ends the process when it was never adopted (a run that stopped before opening the project). */
  close(): void {
    if (!this.adopted) end(this.client);
  }

  /** The first two requests the API object writes are not written: the process has them already. */
  private answerFirstRequests(): void {
    const { channel } = this.client;
    const sent = ["initialize", "updateSnapshot"];
    // Once both are answered, the channel's own method (its prototype's) writes again.
    channel.writeTuple = (type, name) => {
      const next = sent[0];
      if (type !== REQUEST || name.toString("utf8") !== next)
        throw new Error(`toolwright: the early-started TypeScript API process was asked ${name} before ${next}.`);
      sent.shift();
      if (sent.length === 0) delete (channel as Partial<Channel>).writeTuple;
    };
  }
}
