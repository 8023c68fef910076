import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type CodeAction,
  CodeActionKind,
  type Connection,
  createConnection,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type InitializeError,
  type InitializeResult,
  ResponseError,
  TextDocumentSyncKind,
  TextDocuments,
  type TextEdit,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { loadTs7, projectTypeScript } from "../backend/ts7/ts7-api.js";
import { compilerFor } from "../cli/open-project.js";
import { tsconfigPath } from "../cli/tsconfig-path.js";
import type { CompilerOptions } from "../options.js";
import { lspDiagnostic, offsetAt, rangeOf } from "./lsp-convert.js";
import { Ts7Workspace } from "./ts7-workspace.js";

/** How `toolwright lsp` was started: its folder, and `-p` / `--typescript` when given. */
export interface LspSettings {
  readonly cwd: string;
  readonly tsconfig?: string;
  readonly typescript?: string;
}

/** Edits arriving this close together are answered with one snapshot update and one round of diagnostics. */
const SETTLE_MS = 50;

function fileNameOf(uri: string): string | undefined {
  return uri.startsWith("file:") ? fileURLToPath(uri) : undefined;
}

/** The project `toolwright lsp` serves, or the error that says why it cannot serve one. */
function openWorkspace(
  root: string,
  settings: LspSettings,
  editorOptions: CompilerOptions,
  overlay: (fileName: string) => string | undefined,
): Ts7Workspace {
  const tsconfig = tsconfigPath(settings.tsconfig === undefined ? root : settings.cwd, settings.tsconfig);
  if (!tsconfig) throw new Error(`no tsconfig.json found in ${root} or above; start toolwright lsp with -p <path>.`);
  const choice = compilerFor(dirname(tsconfig), settings.typescript && resolve(settings.cwd, settings.typescript));
  if (choice.kind !== "ts7") {
    const found = projectTypeScript(dirname(tsconfig));
    throw new Error(
      `toolwright lsp answers from TypeScript 7's API, and ${tsconfig}'s project has ${found ? `typescript ${found.version}` : "no typescript installed"}. Fix: on TypeScript 5.x use the tsserver plugin ({ "name": "@toolwright/compiler/language-service" } in compilerOptions.plugins; docs/editor.md); for TypeScript 7 install it ("typescript": "^7") or pass --typescript <folder of a 7.x package>.`,
    );
  }
  return new Ts7Workspace(loadTs7(choice.dir), { cwd: dirname(tsconfig), tsconfig, editorOptions }, overlay);
}

/**
 * toolwright's language server (`toolwright lsp`), for editors on TypeScript 7, where
 * tsserver plugins do not exist: it runs beside TypeScript's own language server and adds
 * what the tsserver plugin adds, from the same shared code (`editor/`): toolwright's
 * diagnostics (pushed for every open file after each change), the tool on hover at a tool
 * site, and the quick fixes. Answers come from the project's TypeScript 7 through its API
 * (Ts7Workspace), which reads open files from the editor's buffers.
 */
export function serveLanguageServer(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  settings: LspSettings,
): Connection {
  const connection = createConnection(input, output);
  const documents = new TextDocuments(TextDocument);
  // Open documents by file name: the overlay the API process reads them from.
  const open = new Map<string, TextDocument>();
  let workspace: Ts7Workspace | undefined;
  let timer: NodeJS.Timeout | undefined;
  let watchesFiles = false;

  const guarded = <T>(what: string, fallback: T, run: (w: Ts7Workspace) => T): T => {
    if (!workspace) return fallback;
    try {
      return run(workspace);
    } catch (error) {
      // A file typed half-way can trip anything; the editor gets no answer rather than an error.
      connection.console.error(
        `[toolwright] ${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return fallback;
    }
  };

  const publish = (): void => {
    timer = undefined;
    for (const [fileName, document] of open) {
      const diagnostics = guarded("diagnostics", [], (w) => {
        const located = w.located(fileName);
        return located ? [...located.findings, ...located.hints.map((h) => h.finding)].map(lspDiagnostic) : [];
      });
      void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
    }
  };
  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(publish, SETTLE_MS);
  };

  connection.onInitialize((params): InitializeResult | ResponseError<InitializeError> => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri;
    const root = (folder && fileNameOf(folder)) ?? settings.cwd;
    const editorOptions = (params.initializationOptions ?? {}) as CompilerOptions;
    watchesFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    try {
      workspace = openWorkspace(root, settings, editorOptions, (fileName) => open.get(fileName)?.getText());
      connection.console.info(`[toolwright] serving ${root} with TypeScript ${workspace.version}`);
    } catch (error) {
      // retry: false, so the editor shows the message instead of asking to try again.
      return new ResponseError(1, `toolwright lsp: ${error instanceof Error ? error.message : String(error)}`, {
        retry: false,
      });
    }
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      },
      serverInfo: { name: "toolwright" },
    };
  });

  connection.onInitialized(() => {
    // Files changed outside the editor (a checkout, a generator): the client watches them if it can.
    if (!watchesFiles) return;
    void connection.client
      .register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: "**/*.{ts,tsx,mts,cts,json}" }],
      })
      .catch(() => undefined);
  });

  documents.onDidChangeContent(({ document }) => {
    const fileName = fileNameOf(document.uri);
    if (!fileName) return;
    open.set(fileName, document);
    workspace?.fileChanged(fileName);
    schedule();
  });

  documents.onDidClose(({ document }) => {
    const fileName = fileNameOf(document.uri);
    if (!fileName) return;
    open.delete(fileName);
    // Read from disk again from now on.
    workspace?.fileChanged(fileName);
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
    schedule();
  });

  connection.onDidChangeWatchedFiles(({ changes }) => {
    for (const change of changes) {
      const fileName = fileNameOf(change.uri);
      if (!fileName) continue;
      if (change.type === FileChangeType.Created) workspace?.fileCreated(fileName);
      else if (change.type === FileChangeType.Deleted) workspace?.fileDeleted(fileName);
      else workspace?.fileChanged(fileName);
    }
    schedule();
  });

  connection.onHover(({ textDocument, position }) => {
    const fileName = fileNameOf(textDocument.uri);
    if (!fileName) return null;
    return guarded("hover", null, (w) => {
      const file = w.sourceFile(fileName);
      const found = file && w.hover(fileName, offsetAt(file, position));
      if (!file || !found) return null;
      return {
        contents: { kind: "markdown" as const, value: found.markdown },
        range: rangeOf(file, found.start, found.end),
      };
    });
  });

  connection.onCodeAction(({ textDocument, range, context }) => {
    const fileName = fileNameOf(textDocument.uri);
    const wanted =
      !context.only || context.only.some((kind) => kind === CodeActionKind.Empty || kind === CodeActionKind.QuickFix);
    if (!fileName || !wanted) return [];
    return guarded("quick fixes", [], (w) => {
      const file = w.sourceFile(fileName);
      if (!file) return [];
      const fixes = w.quickFixes(fileName, offsetAt(file, range.start), offsetAt(file, range.end));
      return fixes.map((fix): CodeAction => {
        const changes: Record<string, TextEdit[]> = {};
        for (const edit of fix.edits) {
          const target = edit.fileName === fileName ? file : w.sourceFile(edit.fileName);
          if (!target) continue;
          const uri = open.get(edit.fileName)?.uri ?? pathToFileURL(edit.fileName).href;
          const edits = changes[uri] ?? [];
          edits.push({ range: rangeOf(target, edit.start, edit.start + edit.length), newText: edit.newText });
          changes[uri] = edits;
        }
        return {
          title: fix.description,
          kind: CodeActionKind.QuickFix,
          diagnostics: [lspDiagnostic(fix.fixes)],
          edit: { changes },
        };
      });
    });
  });

  connection.onShutdown(() => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    workspace?.close();
    workspace = undefined;
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}
