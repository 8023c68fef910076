import { type ChildProcess, spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import {
  type CodeAction,
  CodeActionRequest,
  createProtocolConnection,
  type Diagnostic,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  type Hover,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  type InitializeResult,
  LogMessageNotification,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  type Range,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type TextEdit,
} from "vscode-languageserver-protocol/node";
import { CLI } from "../ts7/project.js";

/** How long a test waits for the server to publish what it expects (the machine may be loaded). */
const WAIT_MS = 60_000;

/** A file's URI as an editor sends it. */
export function uriOf(fileName: string): string {
  return pathToFileURL(fileName).href;
}

/** The LSP line and character of the first `needle` (plus `delta` characters) in `text`. */
export function positionOf(text: string, needle: string, delta = 0): { line: number; character: number } {
  const index = text.indexOf(needle);
  if (index < 0) throw new Error(`"${needle}" is not in the text`);
  const before = text.slice(0, index + delta).split("\n");
  return { line: before.length - 1, character: before.at(-1)?.length ?? 0 };
}

/** Applies LSP text edits to `text`, as an editor does. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = text.split("\n");
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((sum, l) => sum + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const edit of sorted)
    out = out.slice(0, offset(edit.range.start)) + edit.newText + out.slice(offset(edit.range.end));
  return out;
}

/**
 * An editor's side of `toolwright lsp`: the real CLI started as a child process in the
 * project's folder, spoken to over its stdin and stdout with vscode-languageserver's own
 * protocol connection, as VS Code's and Neovim's clients speak to it.
 */
export class LspClient {
  readonly connection: ProtocolConnection;
  private readonly child: ChildProcess;
  private readonly published: PublishDiagnosticsParams[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly versions = new Map<string, number>();
  readonly log: string[] = [];
  /** The methods the server registered dynamically (client/registerCapability). */
  readonly registrations: string[] = [];

  constructor(cwd: string, args: readonly string[] = []) {
    this.child = spawn(process.execPath, [CLI, "lsp", "--stdio", ...args], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr?.on("data", (chunk: Buffer) => this.log.push(chunk.toString()));
    if (!this.child.stdout || !this.child.stdin) throw new Error("no stdio");
    this.connection = createProtocolConnection(
      new StreamMessageReader(this.child.stdout),
      new StreamMessageWriter(this.child.stdin),
    );
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.published.push(params);
      for (const wake of this.waiters) wake();
    });
    this.connection.onNotification(LogMessageNotification.type, (params) => {
      this.log.push(`${params.message}\n`);
    });
    // The server asks to watch files; a client that can, says yes.
    this.connection.onRequest(RegistrationRequest.type, (params) => {
      this.registrations.push(...params.registrations.map((r) => r.method));
    });
    this.connection.listen();
  }

  /** `watches`: whether this client says it can watch files for the server (dynamic registration). */
  async initialize(root: string, initializationOptions?: unknown, watches = true): Promise<InitializeResult> {
    const result = await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: uriOf(root),
      workspaceFolders: [{ uri: uriOf(root), name: "project" }],
      capabilities: {
        workspace: { didChangeWatchedFiles: { dynamicRegistration: watches } },
        textDocument: { publishDiagnostics: { versionSupport: true } },
      },
      ...(initializationOptions !== undefined ? { initializationOptions } : {}),
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
    return result;
  }

  async open(fileName: string, text: string): Promise<void> {
    this.versions.set(fileName, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: uriOf(fileName), languageId: "typescript", version: 1, text },
    });
  }

  /** Replaces `range` of an open file with `text` (an incremental change), unsaved. */
  async change(fileName: string, range: Range, text: string): Promise<void> {
    const version = (this.versions.get(fileName) ?? 0) + 1;
    this.versions.set(fileName, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uriOf(fileName), version },
      contentChanges: [{ range, text }],
    });
  }

  /** Replaces the whole text of an open file, as an editor does after applying an edit. */
  async replace(fileName: string, text: string): Promise<void> {
    const version = (this.versions.get(fileName) ?? 0) + 1;
    this.versions.set(fileName, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uriOf(fileName), version },
      contentChanges: [{ text }],
    });
  }

  async close(fileName: string): Promise<void> {
    this.versions.delete(fileName);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, {
      textDocument: { uri: uriOf(fileName) },
    });
  }

  /** Says that a file changed on disk (1 created, 2 changed, 3 deleted), as a watching client does. */
  async filesChanged(changes: readonly { fileName: string; type: 1 | 2 | 3 }[]): Promise<void> {
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: changes.map((c) => ({ uri: uriOf(c.fileName), type: c.type })),
    });
  }

  /**
   * The first diagnostics published for `fileName` at its current version that `until`
   * accepts, waiting for them if none has been yet: the server publishes every open file
   * after each change (anywhere in the project), with the version the editor sent last.
   */
  async diagnostics(
    fileName: string,
    until: (d: readonly Diagnostic[]) => boolean = () => true,
  ): Promise<Diagnostic[]> {
    const uri = uriOf(fileName);
    const version = this.versions.get(fileName);
    let seen = 0;
    return new Promise<Diagnostic[]>((resolve, reject) => {
      const check = (): void => {
        for (; seen < this.published.length; seen++) {
          const params = this.published[seen] as PublishDiagnosticsParams;
          if (params.uri === uri && params.version === version && until(params.diagnostics)) {
            clearTimeout(timer);
            this.waiters.delete(check);
            resolve(params.diagnostics);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `no diagnostics as expected for ${fileName} within ${WAIT_MS} ms; server log:\n${this.log.join("")}`,
          ),
        );
      }, WAIT_MS);
      this.waiters.add(check);
      check();
    });
  }

  hover(fileName: string, position: { line: number; character: number }): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(fileName) }, position });
  }

  async codeActions(fileName: string, range: Range, diagnostics: Diagnostic[] = []): Promise<CodeAction[]> {
    const actions = await this.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: uriOf(fileName) },
      range,
      context: { diagnostics },
    });
    return (actions ?? []).filter(
      (a): a is CodeAction => "title" in a && !("command" in a && typeof a.command === "string"),
    );
  }

  /** shutdown, exit, and the process's exit code. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => {
      if (this.child.exitCode !== null) resolve(this.child.exitCode);
      else this.child.once("exit", (code) => resolve(code));
    });
    if (this.child.exitCode === null) {
      await this.connection.sendRequest(ShutdownRequest.type).catch(() => undefined);
      await this.connection.sendNotification(ExitNotification.type).catch(() => undefined);
    }
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}
