// A minimal `vscode` module: enough for vscode-languageclient 11 and the Palace extension.
'use strict';
const Module = require('module');
const { EventEmitter: NodeEE } = require('events');

class Disposable { constructor(fn) { this._fn = fn; } dispose() { if (this._fn) this._fn(); this._fn = undefined; } static from(...d) { return new Disposable(() => d.forEach((x) => x && x.dispose && x.dispose())); } }
class EventEmitter {
  constructor() { this._l = new Set(); this.event = (fn, thisArg, subs) => { const f = thisArg ? fn.bind(thisArg) : fn; this._l.add(f); const d = new Disposable(() => this._l.delete(f)); if (Array.isArray(subs)) subs.push(d); return d; }; }
  fire(v) { for (const f of [...this._l]) f(v); }
  dispose() { this._l.clear(); }
}
class Position { constructor(line, character) { this.line = line; this.character = character; } }
class Range {
  constructor(a, b, c, d) { if (typeof a === 'number') { this.start = new Position(a, b); this.end = new Position(c, d); } else { this.start = a; this.end = b; } }
  get isEmpty() { return this.start.line === this.end.line && this.start.character === this.end.character; }
}
class Selection extends Range { constructor(a, b, c, d) { super(a, b, c, d); this.anchor = this.start; this.active = this.end; } }
class CancellationTokenSource {
  constructor() { const e = new EventEmitter(); this._e = e; this.token = { isCancellationRequested: false, onCancellationRequested: e.event }; }
  cancel() { if (!this.token.isCancellationRequested) { this.token.isCancellationRequested = true; this._e.fire(); } }
  dispose() {}
}
class Uri {
  constructor(scheme, authority, path, query, fragment) { this.scheme = scheme; this.authority = authority || ''; this.path = path || ''; this.query = query || ''; this.fragment = fragment || ''; }
  get fsPath() { return decodeURIComponent(this.path); }
  toString() { return this.scheme === 'file' ? 'file://' + encodeURI(this.path) : `${this.scheme}:${this.authority ? '//' + this.authority : ''}${this.path}${this.query ? '?' + this.query : ''}`; }
  toJSON() { return { scheme: this.scheme, path: this.path }; }
  with(c) { return new Uri(c.scheme ?? this.scheme, c.authority ?? this.authority, c.path ?? this.path, c.query ?? this.query, c.fragment ?? this.fragment); }
  static file(p) { return new Uri('file', '', p); }
  static parse(s) { const m = /^([a-z][\w+.-]*):(?:\/\/([^/]*))?([^?#]*)/i.exec(s); return new Uri(m[1], m[2], decodeURIComponent(m[3])); }
  static from(c) { return new Uri(c.scheme, c.authority, c.path, c.query, c.fragment); }
  static joinPath(u, ...p) { return u.with({ path: [u.path, ...p].join('/') }); }
}
class ThemeIcon { constructor(id) { this.id = id; } }
class TreeItem { constructor(label, state) { this.label = label; this.collapsibleState = state; } }
class MarkdownString { constructor(v = '') { this.value = v; } appendText(t) { this.value += t; return this; } appendMarkdown(t) { this.value += t; return this; } }

const state = {
  config: {}, commands: new Map(), messages: [], outputs: [], clipboard: '', activeTextEditor: undefined,
  quickPickAnswers: [], inputAnswers: [], warningAnswers: [], treeProviders: {}, webviewProviders: {}, contentProviders: {},
  statusBar: [], treeViews: {}, panels: [], progress: [], hoverProviders: [],
};
const onDidChangeActiveTextEditor = new EventEmitter();
const onDidChangeTextEditorSelection = new EventEmitter();
const onDidSaveTextDocument = new EventEmitter();
const onDidOpenTextDocument = new EventEmitter();
const onDidCloseTextDocument = new EventEmitter();
const onDidChangeTextDocument = new EventEmitter();
const noopEvent = new EventEmitter().event;

function makeOutput(name) {
  const lines = [];
  // Each line carries its level as VS Code's log output channel writes it
  // ("[error] …"); append and appendLine log at info, as VS Code's do.
  const at = (level) => (l) => { lines.push(`[${level}] ${l}`); if (process.env.PALACE_TEST_VERBOSE) console.error(`[${name}] [${level}] ${l}`); };
  const o = { name, lines, append: at('info'), appendLine: at('info'), replace: at('info'), clear() {}, show() {}, hide() {}, dispose() {},
    trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warning'), error: at('error'), logLevel: 2, onDidChangeLogLevel: noopEvent };
  state.outputs.push(o); return o;
}

const workspace = {
  workspaceFolders: [], textDocuments: [],
  getConfiguration(section) {
    return {
      get: (k, d) => { const key = section ? `${section}.${k}` : k; return key in state.config ? state.config[key] : d; },
      has: (k) => (section ? `${section}.${k}` : k) in state.config,
      update: async (k, v) => { state.config[section ? `${section}.${k}` : k] = v; },
      inspect: () => undefined,
    };
  },
  getWorkspaceFolder(uri) { return workspace.workspaceFolders.find((f) => uri.path.startsWith(f.uri.path)); },
  onDidOpenTextDocument: onDidOpenTextDocument.event, onDidCloseTextDocument: onDidCloseTextDocument.event,
  onDidChangeTextDocument: onDidChangeTextDocument.event, onDidSaveTextDocument: onDidSaveTextDocument.event,
  onWillSaveTextDocument: noopEvent, onDidChangeConfiguration: noopEvent, onDidChangeWorkspaceFolders: noopEvent,
  onDidCreateFiles: noopEvent, onDidDeleteFiles: noopEvent, onDidRenameFiles: noopEvent, onWillCreateFiles: noopEvent,
  onWillDeleteFiles: noopEvent, onWillRenameFiles: noopEvent, onDidOpenNotebookDocument: noopEvent, onDidCloseNotebookDocument: noopEvent,
  onDidChangeNotebookDocument: noopEvent, onDidSaveNotebookDocument: noopEvent, notebookDocuments: [],
  createFileSystemWatcher() { return { onDidCreate: noopEvent, onDidChange: noopEvent, onDidDelete: noopEvent, dispose() {} }; },
  registerTextDocumentContentProvider(scheme, p) { state.contentProviders[scheme] = p; return new Disposable(() => {}); },
  async openTextDocument(uri) {
    if (uri.scheme !== 'file') { const text = await state.contentProviders[uri.scheme].provideTextDocumentContent(uri); return makeDocument(uri, text, 'markdown'); }
    return workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) || makeDocument(uri, require('fs').readFileSync(uri.fsPath, 'utf8'));
  },
  fs: {},
};

function makeDocument(uri, text, languageId = 'plaintext') {
  const lines = text.split('\n');
  return { uri, fileName: uri.fsPath, languageId, version: 1, isDirty: false, isClosed: false, isUntitled: false, eol: 1, lineCount: lines.length,
    getText(r) { if (!r) return text; const out = []; for (let l = r.start.line; l <= r.end.line; l++) { const s = lines[l] || ''; out.push(s.slice(l === r.start.line ? r.start.character : 0, l === r.end.line ? r.end.character : undefined)); } return out.join('\n'); },
    lineAt(l) { return { text: lines[l], lineNumber: l }; }, save: async () => true };
}

const window = {
  get activeTextEditor() { return state.activeTextEditor; }, visibleTextEditors: [],
  onDidChangeActiveTextEditor: onDidChangeActiveTextEditor.event, onDidChangeTextEditorSelection: onDidChangeTextEditorSelection.event,
  onDidChangeVisibleTextEditors: noopEvent, onDidChangeWindowState: noopEvent, onDidChangeActiveNotebookEditor: noopEvent,
  createOutputChannel: (name) => makeOutput(name),
  // texts keeps every text the item showed, so a test sees a state that has already passed (mining).
  createStatusBarItem() { let text = ''; const s = { texts: [], get text() { return text; }, set text(v) { text = v; s.texts.push(v); }, show() {}, hide() {}, dispose() {} }; state.statusBar.push(s); return s; },
  createTreeView(id, o) { state.treeProviders[id] = o.treeDataProvider; const v = { title: undefined, message: undefined, description: undefined, dispose() {}, reveal: async () => {} }; state.treeViews[id] = v; return v; },
  // A panel keeps its html and answers messages through receive(m) (what the page's script would post).
  createWebviewPanel(viewType, title, _column, options) {
    const recv = new EventEmitter(); const disposed = new EventEmitter();
    const p = { viewType, title, disposed: false, webview: { html: '', options: options || {}, cspSource: 'vscode-webview://stub', onDidReceiveMessage: recv.event, postMessage: async () => true },
      reveal() {}, onDidDispose: disposed.event, dispose() { p.disposed = true; disposed.fire(); }, receive: (m) => recv.fire(m) };
    state.panels.push(p); return p;
  },
  registerTreeDataProvider(id, p) { state.treeProviders[id] = p; return new Disposable(() => {}); },
  registerWebviewViewProvider(id, p) { state.webviewProviders[id] = p; return new Disposable(() => {}); },
  showInformationMessage: async (m) => { state.messages.push(['info', m]); return undefined; },
  showWarningMessage: async (m) => { state.messages.push(['warn', m]); return state.warningAnswers.shift(); },
  showErrorMessage: async (m, ...items) => { state.messages.push(['error', m, items]); return undefined; },
  showQuickPick: async (items) => { const f = state.quickPickAnswers.shift(); const list = await items; return typeof f === 'function' ? f(list) : f; },
  showInputBox: async () => state.inputAnswers.shift(),
  async showTextDocument(doc, opts) { const sel = opts && opts.selection ? new Selection(opts.selection.start, opts.selection.end) : new Selection(0, 0, 0, 0); const ed = { document: doc, selection: sel, visibleRanges: [new Range(0, 0, 40, 0)] }; state.activeTextEditor = ed; state.shown = { doc, opts }; return ed; },
  // Every progress shown (the languageclient's own $/progress would show here as a second status item).
  withProgress: async (o, task) => { state.progress.push(o); return task({ report() {} }, new CancellationTokenSource().token); },
  tabGroups: { all: [], onDidChangeTabs: noopEvent, onDidChangeTabGroups: noopEvent },
};

const commands = {
  registerCommand(id, fn) { state.commands.set(id, fn); return new Disposable(() => state.commands.delete(id)); },
  async executeCommand(id, ...a) { const f = state.commands.get(id); if (f) return f(...a); return undefined; },
};

function matchSelector(sel, doc) {
  const sels = Array.isArray(sel) ? sel : [sel];
  let best = 0;
  for (const s of sels) {
    if (typeof s === 'string') { if (s === '*' || s === doc.languageId) best = Math.max(best, 10); continue; }
    if (s.scheme && s.scheme !== doc.uri.scheme) continue;
    if (s.language && s.language !== doc.languageId && s.language !== '*') continue;
    best = Math.max(best, 5);
  }
  return best;
}
// registerHoverProvider keeps the provider, so a test hovers as the editor would.
const languages = new Proxy({ match: matchSelector, registerHoverProvider: (selector, provider) => { state.hoverProviders.push({ selector, provider }); return new Disposable(() => { state.hoverProviders = state.hoverProviders.filter((h) => h.provider !== provider); }); }, setTextDocumentLanguage: async (doc, languageId) => Object.assign(doc, { languageId }), getDiagnostics: () => [], createDiagnosticCollection: () => ({ set() {}, delete() {}, clear() {}, dispose() {} }), onDidChangeDiagnostics: noopEvent },
  { get: (t, k) => (k in t ? t[k] : k === 'then' ? undefined : () => new Disposable(() => {})) });

const lenientNames = ['CompletionItem', 'CodeLens', 'DocumentLink', 'CodeAction', 'Diagnostic', 'CallHierarchyItem', 'TypeHierarchyItem', 'SymbolInformation', 'InlayHint',
  'Hover', 'Location', 'SignatureHelp', 'SignatureInformation', 'ParameterInformation', 'DocumentHighlight', 'DocumentSymbol', 'Color', 'ColorInformation', 'ColorPresentation',
  'FoldingRange', 'SelectionRange', 'SemanticTokens', 'SemanticTokensEdits', 'SemanticTokensEdit', 'SemanticTokensLegend', 'LinkedEditingRanges', 'InlineValueText',
  'InlineValueVariableLookup', 'InlineValueEvaluatableExpression', 'InlineCompletionItem', 'InlineCompletionList', 'WorkspaceEdit', 'TextEdit', 'SnippetString',
  'CompletionList', 'CodeActionKind', 'DiagnosticRelatedInformation', 'CancellationError', 'CallHierarchyIncomingCall', 'CallHierarchyOutgoingCall', 'DocumentDropEdit',
  'InlayHintLabelPart', 'TabInputText', 'TabInputTextDiff', 'TabInputNotebook', 'TabInputNotebookDiff', 'TabInputCustom', 'NotebookCellData', 'NotebookData',
  'NotebookRange', 'NotebookCellOutput', 'NotebookCellOutputItem', 'NotebookEdit', 'RelativePattern', 'LanguageModelTextPart', 'DocumentPasteEdit', 'EvaluatableExpression'];
const api = {
  __esModule: true, version: '1.100.0',
  Disposable, EventEmitter, Position, Range, Selection, CancellationTokenSource, Uri, ThemeIcon, TreeItem, MarkdownString,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 }, StatusBarAlignment: { Left: 1, Right: 2 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 }, ViewColumn: { Active: -1, One: 1 },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 }, DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  CompletionItemKind: {}, SymbolKind: {}, SymbolTag: {}, CompletionItemTag: {}, InsertTextFormat: {}, FileType: {}, TextDocumentSaveReason: { Manual: 1 },
  ConfigurationTarget: { Global: 1, Workspace: 2 }, EndOfLine: { LF: 1, CRLF: 2 }, UIKind: { Desktop: 1 }, LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
  workspace, window, commands, languages,
  env: { clipboard: { writeText: async (t) => { state.clipboard = t; }, readText: async () => state.clipboard }, openExternal: async () => true, language: 'en', appName: 'stub', machineId: 'x', sessionId: 'y', uiKind: 1 },
  extensions: { all: [], getExtension: () => undefined, onDidChange: noopEvent },
  notebooks: { createNotebookController() { return {}; } },
};
for (const n of lenientNames) if (!api[n]) api[n] = class { constructor(...a) { this._args = a; } };
api.CodeActionKind = Object.assign(class {}, { Empty: { value: '' }, QuickFix: { value: 'quickfix' }, Refactor: { value: 'refactor' }, Source: { value: 'source' } });

const stub = new Proxy(api, { get(t, k) { if (k in t) return t[k]; if (k === 'then') return undefined; return typeof k === 'string' && /^[A-Z]/.test(k) ? (t[k] = class { constructor(...a) { this._args = a; } }) : undefined; } });

const orig = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { if (request === 'vscode') return 'vscode-stub'; return orig.call(this, request, ...rest); };
require.cache['vscode-stub'] = { id: 'vscode-stub', filename: 'vscode-stub', loaded: true, exports: stub };

// Test drivers
stub.__test = {
  state, makeDocument,
  makeContext: () => ({ subscriptions: [], extensionPath: __dirname, extensionUri: Uri.file(__dirname), globalState: { get() {}, update: async () => {} }, workspaceState: { get() {}, update: async () => {} }, asAbsolutePath: (p) => p }),
  openEditor(doc, sel) {
    workspace.textDocuments.push(doc); onDidOpenTextDocument.fire(doc);
    const ed = { document: doc, selection: sel || new Selection(0, 0, 0, 0), visibleRanges: [new Range(0, 0, 2, 0)] };
    state.activeTextEditor = ed; onDidChangeActiveTextEditor.fire(ed); return ed;
  },
  save(doc) { onDidSaveTextDocument.fire(doc); },
  // Resolves a webview view as the workbench would; posted collects what the extension posts to it.
  resolveWebviewView(id) {
    const recv = new EventEmitter(); const posted = [];
    const view = { webview: { html: '', options: {}, cspSource: 'vscode-webview://stub', onDidReceiveMessage: recv.event, postMessage: async (m) => { posted.push(m); return true; } },
      onDidDispose: noopEvent, posted, receive: (m) => recv.fire(m) };
    state.webviewProviders[id].resolveWebviewView(view);
    return view;
  },
};
module.exports = stub;
