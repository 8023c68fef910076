/** One tsserver response. */
export interface Response<T> {
  readonly success: boolean;
  readonly message?: string;
  readonly body?: T;
}

/** A 1-based place in a file, as tsserver writes it. */
export interface Location {
  readonly line: number;
  readonly offset: number;
}

/** A diagnostic as `semanticDiagnosticsSync` returns it. */
export interface ServerDiagnostic {
  readonly start: Location;
  readonly end: Location;
  readonly text: string;
  readonly code: number;
  readonly category: string;
}

/** A code fix as `getCodeFixes` returns it. */
export interface ServerCodeFix {
  readonly fixName: string;
  readonly description: string;
  readonly changes: {
    fileName: string;
    textChanges: { start: Location; end: Location; newText: string }[];
  }[];
}

/** A real `tsserver` process spoken to over stdio. */
export declare class TsServer {
  /**
   * @param probeLocation a folder whose node_modules holds the plugin, as an editor passes its workspace folder.
   * @param tsserverPath the tsserver.js to run (default: the one TypeScript here resolves to).
   */
  constructor(probeLocation: string, tsserverPath?: string);
  /** The process id of tsserver. */
  readonly pid: number | undefined;
  /** Sends a request and waits for its response. */
  request<T>(command: string, args: unknown): Promise<Response<T>>;
  /** Sends a command that has no response when it succeeds (`open`, `change`, `updateOpen`). */
  notify(command: string, args: unknown): void;
  /** Opens a file from disk in the editor. */
  open(file: string): void;
  /** The file's semantic diagnostics (TypeScript's and the plugins'). */
  diagnostics(file: string): Promise<ServerDiagnostic[]>;
  /** The file's suggestion diagnostics. */
  suggestions(file: string): Promise<ServerDiagnostic[]>;
  /** Stops the process: `exit`, then a kill if it has not gone within two seconds. */
  close(): Promise<void>;
}
