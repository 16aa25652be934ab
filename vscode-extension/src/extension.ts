import * as vscode from 'vscode';
import { PalaceClient, resolveServer, ProgressValue } from './client';
import {
  Hit, hitToItem, drawerText, debounce, statusText, StatusModel, searchHtml, makeNonce,
  citationTitle, drawerDocPath, statusHtml, withCsp, PalaceStatus, segmentsText, plainMarkdown, plural,
  resultsMessage, roomListing, MapRoom,
} from './models';

const SCHEME = 'palace-drawer';
/** The wake-up handoff as a read-only document. */
const WAKE_UP = vscode.Uri.from({ scheme: 'palace-wakeup', path: '/Palace wake-up.md' });

export interface PalaceApi {
  client: PalaceClient;
  relevant: RelevantProvider;
  status: StatusModel;
  refreshStatus(): Promise<void>;
  refreshRelevant(): Promise<void>;
}

/**
 * A drawer's first line: the symbol or why, then where it is. A tree item
 * is one line, so the snippet is its child, shown expanded: the second line.
 */
class DrawerItem extends vscode.TreeItem {
  readonly snippet?: SnippetItem;
  constructor(readonly hit: Hit) {
    const m = hitToItem(hit);
    const snip = segmentsText(m.snippet);
    super(m.label, snip.text ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    this.id = `drawer:${hit.id}`;
    this.description = m.description;
    this.tooltip = m.tooltip;
    this.contextValue = 'drawer';
    this.iconPath = new vscode.ThemeIcon(m.opensSource ? 'file-code' : 'comment-discussion');
    this.command = { command: 'palace.openDrawer', title: 'Open', arguments: [hit] };
    if (snip.text) this.snippet = new SnippetItem(hit, snip, m.tooltip, this.command);
  }
}

/** The second line of a drawer: its snippet cut around the match, the match highlighted. */
class SnippetItem extends vscode.TreeItem {
  constructor(readonly hit: Hit, snip: { text: string; highlights: [number, number][] }, tooltip: string, command: vscode.Command) {
    super({ label: snip.text, highlights: snip.highlights }, vscode.TreeItemCollapsibleState.None);
    this.id = `snippet:${hit.id}`;
    this.tooltip = tooltip;
    this.command = command;
  }
}

/**
 * The answer's note (what under the cursor was skipped as noise, and what
 * the rows are about instead), one muted line over the rows: a tree item
 * whose only text is its description, which VS Code draws muted.
 */
class NoteItem extends vscode.TreeItem {
  constructor(readonly note: string) {
    super('', vscode.TreeItemCollapsibleState.None);
    this.id = 'note';
    this.description = note;
    this.tooltip = note;
    this.contextValue = 'note';
    this.iconPath = new vscode.ThemeIcon('info');
    this.accessibilityInformation = { label: note, role: 'note' };
  }
}

type RelevantItem = DrawerItem | SnippetItem | NoteItem;

export class RelevantProvider implements vscode.TreeDataProvider<RelevantItem> {
  private emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;
  hits: Hit[] = [];
  /** What the hits are relevant to (palace/relevant's `about`): the view's title names it. */
  about = '';
  /** palace/relevant's `note`: what under the cursor was skipped as noise; shown as a muted line over the rows. */
  note = '';
  /** Shown instead of rows when there are none: the server's `empty` sentence, or why we have nothing. */
  message = 'Open a file to see what Palace remembers about it.';
  /** The tree view showing this provider, whose title and message follow the answer. */
  view?: vscode.TreeView<RelevantItem>;
  private cts?: vscode.CancellationTokenSource;

  constructor(private client: PalaceClient) {}

  getTreeItem(e: RelevantItem) { return e; }
  getChildren(e?: RelevantItem): RelevantItem[] {
    if (e) return e instanceof DrawerItem && e.snippet ? [e.snippet] : [];
    const rows: RelevantItem[] = this.hits.map((h) => new DrawerItem(h));
    return this.note ? [new NoteItem(plainMarkdown(this.note)), ...rows] : rows;
  }

  async update(editor: vscode.TextEditor | undefined): Promise<void> {
    const cfg = vscode.workspace.getConfiguration('palace');
    if (!cfg.get<boolean>('relevant.enabled', true) || !editor || editor.document.uri.scheme !== 'file') return;
    if (!this.client.running) return;
    this.cts?.cancel();
    const cts = (this.cts = new vscode.CancellationTokenSource());
    const sel = editor.selection;
    const vis = editor.visibleRanges[0];
    const params: Record<string, unknown> = {
      textDocument: { uri: editor.document.uri.toString() },
      limit: cfg.get<number>('relevant.limit', 10),
    };
    if (sel && !sel.isEmpty) params.range = { start: sel.start, end: sel.end };
    else params.position = { line: sel.active.line, character: sel.active.character };
    if (vis) params.visibleRange = { start: vis.start, end: vis.end };
    try {
      const res = await this.client.relevant(params, cts.token);
      if (cts.token.isCancellationRequested) return;
      this.hits = res?.hits ?? [];
      this.about = String(res?.about ?? '');
      this.note = String(res?.note ?? '');
      this.message = String(res?.empty || 'Nothing relevant remembered here yet.');
    } catch (err) {
      if (cts.token.isCancellationRequested) return;
      this.hits = [];
      this.about = '';
      this.note = '';
      this.message = `Palace: ${String((err as Error).message ?? err)}`;
    }
    this.changed();
  }

  private changed() {
    if (this.view) {
      // The identifier goes in the description: VS Code upper-cases a
      // view's title, which would turn computeChecksum into COMPUTECHECKSUM.
      this.view.description = this.about || undefined;
      this.view.message = this.hits.length ? undefined : plainMarkdown(this.message);
    }
    this.emitter.fire();
  }
}

export interface SearchQuery { query: string; wing?: string; room?: string }

/** The Search webview: the form posts `search`, rows post `open`. */
export class SearchViewProvider implements vscode.WebviewViewProvider {
  view?: vscode.WebviewView;
  private last: Hit[] = [];
  /** Messages for a webview whose script has not said `ready` yet. */
  private pending: unknown[] = [];
  private ready = false;
  constructor(private client: PalaceClient, private open: (h: Hit) => Promise<void>) {}

  resolveWebviewView(view: vscode.WebviewView) {
    this.view = view;
    this.ready = false;
    view.webview.options = { enableScripts: true, localResourceRoots: [] };
    // A hidden view is disposed (no retainContextWhenHidden): later messages wait for the next one.
    view.onDidDispose(() => { if (this.view === view) { this.view = undefined; this.ready = false; } });
    const wing = vscode.workspace.getConfiguration('palace').get<string>('wing', '');
    view.webview.onDidReceiveMessage(async (m) => {
      if (m?.type === 'ready') {
        this.ready = true;
        for (const p of this.pending.splice(0)) void view.webview.postMessage(p);
      } else if (m?.type === 'search') {
        await this.run({ query: String(m.query || ''), wing: m.wing || undefined, room: m.room || undefined });
      } else if (m?.type === 'open') {
        const h = this.last.find((x) => x.id === m.id);
        if (h) await this.open(h);
      }
    });
    view.webview.html = searchHtml(makeNonce(), view.webview.cspSource, wing);
  }

  private post(m: unknown) {
    if (this.view && this.ready) void this.view.webview.postMessage(m);
    else this.pending.push(m);
  }

  /** Searches and shows the results in the view. */
  async run(q: SearchQuery, focus = false): Promise<Hit[]> {
    try {
      const res = await this.client.search({ query: q.query, wing: q.wing, room: q.room, limit: 30 });
      this.last = res?.hits ?? [];
      this.post({ type: 'results', query: q.query, focus, items: this.last.map(hitToItem), message: resultsMessage(q.query, this.last.length, q.wing, q.room) });
    } catch (err) {
      this.last = [];
      this.post({ type: 'results', query: q.query, items: [], error: plainMarkdown(String((err as Error).message ?? err)) });
    }
    return this.last;
  }

  /**
   * A map click: the room's drawers as the map lists them, its wing and
   * room set in the form (and shown as the scope), the query empty: no
   * search for the room's name, which its drawers need not say.
   */
  async listRoom(wing: string, room: MapRoom): Promise<Hit[]> {
    const l = roomListing(wing, room);
    this.last = l.hits;
    this.post({ type: 'fill', query: '', wing, room: room.name });
    await vscode.commands.executeCommand('palace.search.focus');
    this.post({ type: 'results', query: '', focus: true, items: l.items, message: l.message });
    return this.last;
  }

  /** Fills the form with q (and so the scope it shows). */
  fill(q: SearchQuery) { this.post({ type: 'fill', ...q }); }
}

/** One webview panel per kind of page (status, map, graph), reused while it is open. */
class Pages {
  private panels = new Map<string, vscode.WebviewPanel>();
  show(key: string, title: string, html: string, onMessage?: (m: any) => unknown, scripts = false): vscode.WebviewPanel {
    let p = this.panels.get(key);
    if (!p) {
      p = vscode.window.createWebviewPanel(key, title, vscode.ViewColumn.Active, { enableScripts: scripts, localResourceRoots: [] });
      this.panels.set(key, p);
      const panel = p;
      p.onDidDispose(() => { if (this.panels.get(key) === panel) this.panels.delete(key); });
      if (onMessage) p.webview.onDidReceiveMessage(onMessage);
    } else {
      p.reveal(undefined);
    }
    p.title = title;
    p.webview.html = html;
    return p;
  }
  dispose() { for (const p of this.panels.values()) p.dispose(); this.panels.clear(); }
}

let palace: PalaceClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<PalaceApi> {
  const output = vscode.window.createOutputChannel('Palace', { log: true });
  const bar = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  bar.command = 'palace.showStatus';
  bar.name = 'Palace';
  const status: StatusModel = { state: 'starting' };
  // The lexical-only notice (no embedding model) is said here and on the
  // status page, not on every answer.
  let notice = '';
  const render = () => {
    bar.text = statusText(status);
    bar.tooltip = ['Palace memory — click for status', notice.replace(/`/g, '')].filter(Boolean).join('\n\n');
    bar.show();
  };
  render();

  let refreshStatus = async () => { /* set below */ };
  // The Relevant panel asks again when the palace changes under it, not
  // only when the cursor moves: a panel opened before the first mine ends
  // would otherwise keep "no drawers yet" (or a half-mined answer) until
  // the cursor moves. (relevant and update are declared below; the
  // client's events come only after client.start(), at the end.)
  const refreshRelevant = () => { update.cancel(); void relevant.update(vscode.window.activeTextEditor); };
  const relevantSoon = () => update(vscode.window.activeTextEditor);
  const client = new PalaceClient(output, {
    onState: (s) => { status.state = s; render(); if (s === 'running') void refreshStatus(); },
    onProgress: (v: ProgressValue) => {
      if (v.kind === 'end') { status.mining = undefined; void refreshStatus(); refreshRelevant(); }
      else status.mining = { ...(status.mining ?? {}), ...v };
      render();
    },
    onDidIndex: (n) => {
      output.info(`Palace: indexed ${n.uri} ${n.skipped ? '(skipped: ' + n.skipped + ')' : `(${n.drawers ?? 0} drawers, ${n.ms ?? 0} ms)`}`);
      void refreshStatus();
      if (!n.skipped) relevantSoon();
    },
    // Any write to the palace, ours or another process's (the CLI, an
    // agent). It does not say which drawers changed, so the panel asks
    // again (palace/relevant costs tens of ms, and this comes at most every
    // 500 ms): always outside a mine; during one only while the panel is
    // empty, so the first mine's rows show as soon as they are written and
    // the mine's end settles the rest.
    onChanged: (n) => {
      if (typeof n?.drawers === 'number') { status.drawers = n.drawers; render(); }
      if (!status.mining || !relevant.hits.length) relevantSoon();
    },
  });
  palace = client;
  refreshStatus = async () => {
    try { const st = await client.status(); status.drawers = st?.drawers; notice = String(st?.notice ?? ''); } catch { /* not running */ }
    render();
  };

  const relevant = new RelevantProvider(client);
  const tree = vscode.window.createTreeView('palace.relevant', { treeDataProvider: relevant });
  relevant.view = tree;
  tree.message = relevant.message;
  const pages = new Pages();

  const drawers = new Map<string, string>();
  const docEmitter = new vscode.EventEmitter<vscode.Uri>();
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
    onDidChange: docEmitter.event,
    provideTextDocumentContent: async (uri) => {
      const id = new URLSearchParams(uri.query).get('id') ?? '';
      if (drawers.has(id)) return drawers.get(id)!;
      const d = await client.drawer(id);
      const t = drawerText(d); drawers.set(id, t); return t;
    },
  }));

  let wakeUpText = '';
  const wakeUpEmitter = new vscode.EventEmitter<vscode.Uri>();
  context.subscriptions.push(wakeUpEmitter, vscode.workspace.registerTextDocumentContentProvider(WAKE_UP.scheme, {
    onDidChange: wakeUpEmitter.event,
    provideTextDocumentContent: () => wakeUpText,
  }));

  const openDrawer = async (h: Hit) => {
    if (h.uri && h.range) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(h.uri));
      const r = new vscode.Range(h.range.start.line, h.range.start.character, h.range.end.line, h.range.end.character);
      await vscode.window.showTextDocument(doc, { selection: r, preview: true });
      return;
    }
    // The tab is named by the drawer's citation; the id rides in the query.
    let hit = h;
    if (!h.citation && !h.source) { try { hit = { ...h, ...(await client.drawer(h.id)) }; } catch { /* the id names it */ } }
    drawers.delete(h.id);
    const uri = vscode.Uri.from({ scheme: SCHEME, path: drawerDocPath(hit), query: new URLSearchParams({ id: h.id }).toString() });
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'markdown') doc = await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: true });
  };

  type Graph = Awaited<ReturnType<PalaceClient['graph']>>;
  const showGraph = async (name?: string): Promise<Graph | undefined> => {
    let entity = name;
    if (!entity) {
      const ed = vscode.window.activeTextEditor;
      const r = ed && (ed.selection.isEmpty ? ed.document.getWordRangeAtPosition(ed.selection.active) : ed.selection);
      const word = ed && r ? ed.document.getText(r).trim() : '';
      entity = word || await vscode.window.showInputBox({ title: 'Palace: knowledge graph of', placeHolder: 'entity name' });
    }
    if (!entity) return;
    const nonce = makeNonce();
    let res: Graph;
    try {
      res = await client.graph({ entity, nonce });
    } catch (err) {
      const e = err as { code?: number; message?: string };
      if (e?.code !== -32602 || !/not found/i.test(String(e.message))) throw err;
      // A code word is seldom an entity: offer the ones the graph holds
      // (palace/map names the most connected), not an error.
      return pickEntity(entity);
    }
    pages.show('palace.graph', `Palace Graph: ${res.entity || entity}`, withCsp(res.html, nonce), onPageMessage, true);
    return res;
  };
  const pickEntity = async (word: string): Promise<Graph | undefined> => {
    const entities = ((await client.map({ nonce: makeNonce() })).map as { entities?: { name: string; type?: string; facts?: number }[] })?.entities ?? [];
    if (!entities.length) {
      void vscode.window.showInformationMessage(`Palace: “${word}” is not in the knowledge graph, which holds no entity yet (palace kg add adds facts).`);
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(entities.map((x) => ({
      label: x.name, description: [x.type && x.type !== 'unknown' ? x.type : '', typeof x.facts === 'number' ? plural(x.facts, 'fact') : ''].filter(Boolean).join(' · '),
    })), { title: `Palace: “${word}” is not in the knowledge graph: pick an entity`, placeHolder: 'entity' });
    return pick ? showGraph(pick.label) : undefined;
  };
  /** The last map shown: a room click lists that room's drawers from it. */
  let lastMap: { wings?: { name: string; rooms?: MapRoom[] }[] } | undefined;
  // Clicks in the map and graph pages (see the palace/map contract).
  const onPageMessage = async (m: any) => {
    try {
      if (m?.type === 'openRoom') {
        const room = lastMap?.wings?.find((w) => w.name === m.wing)?.rooms?.find((r) => r.name === m.room);
        if (room) await search.listRoom(String(m.wing), room);
        else { search.fill({ query: '', wing: m.wing || undefined, room: m.room || undefined }); await vscode.commands.executeCommand('palace.search.focus'); }
      }
      else if (m?.type === 'openEntity' && m.name) await showGraph(String(m.name));
    } catch (err) {
      output.error(`Palace: ${m?.type} failed: ${String((err as Error).message ?? err)}`);
      void vscode.window.showErrorMessage(plainMarkdown(`Palace: ${String((err as Error).message ?? err)}`));
    }
  };

  const search = new SearchViewProvider(client, openDrawer);
  const update = debounce((e?: vscode.TextEditor) => void relevant.update(e), 300);

  const pickWingRoom = async (): Promise<{ wing?: string; room?: string } | undefined> => {
    const cfgWing = vscode.workspace.getConfiguration('palace').get<string>('wing', '');
    let wings: string[] = [];
    try {
      const st = await client.status();
      wings = (st?.server?.folders ?? []).map((f: { wing: string }) => f.wing);
      for (const r of (st?.rooms ?? []) as { wing: string }[]) if (r.wing && !wings.includes(r.wing)) wings.push(r.wing);
    } catch { /* keep empty */ }
    if (cfgWing && !wings.includes(cfgWing)) wings.unshift(cfgWing);
    const wingItems = [{ label: '$(folder) default', description: 'the file\'s workspace wing', value: '' }, ...wings.map((w) => ({ label: w, value: w }))];
    const w = await vscode.window.showQuickPick(wingItems, { title: 'Remember in wing', placeHolder: 'wing' });
    if (!w) return undefined;
    const room = await vscode.window.showInputBox({ title: 'Room (empty: automatic)', placeHolder: 'e.g. decisions' });
    if (room === undefined) return undefined;
    return { wing: w.value || undefined, room: room || undefined };
  };

  const cmds: [string, (...a: any[]) => unknown][] = [
    ['palace.openDrawer', (h: Hit) => openDrawer(h)],
    ['palace.refreshRelevant', () => relevant.update(vscode.window.activeTextEditor)],
    ['palace.search', async (q?: string) => {
      const query = typeof q === 'string' ? q : await vscode.window.showInputBox({ title: 'Search Palace', placeHolder: 'query' });
      if (!query) return;
      const res = await client.search({ query, limit: 30 });
      const hits: Hit[] = res?.hits ?? [];
      const pick = await vscode.window.showQuickPick(hits.map((h) => {
        const m = hitToItem(h); return { label: m.label, description: m.description, detail: segmentsText(m.snippet).text, hit: h };
      }), { title: `Palace: ${plural(hits.length, 'result')} for "${query}"`, matchOnDetail: true, matchOnDescription: true });
      if (pick) await openDrawer(pick.hit);
      return hits;
    }],
    ['palace.rememberSelection', async (opts?: { wing?: string; room?: string }) => {
      const ed = vscode.window.activeTextEditor;
      if (!ed || ed.selection.isEmpty) { void vscode.window.showWarningMessage('Palace: select some text to remember.'); return; }
      const wr = opts ?? (await pickWingRoom());
      if (!wr) return;
      const params: Record<string, unknown> = { text: ed.document.getText(ed.selection), ...wr };
      if (ed.document.uri.scheme === 'file') {
        params.uri = ed.document.uri.toString();
        params.range = { start: ed.selection.start, end: ed.selection.end };
      }
      let res = await client.remember(params);
      if (res?.added === false && res?.duplicates?.length) {
        const dup = res.duplicates[0];
        const pick = await vscode.window.showWarningMessage(
          `Palace: near duplicate of ${dup.citation ?? dup.id}.`, 'Remember anyway', 'Open existing');
        if (pick === 'Remember anyway') res = await client.remember({ ...params, force: true });
        else { if (pick === 'Open existing') await openDrawer({ id: dup.id }); return res; }
      }
      if (res?.added === false) void vscode.window.showWarningMessage(`Palace: not remembered (${res?.reason ?? 'unknown'})`);
      else void vscode.window.showInformationMessage(`Palace: remembered in ${res?.wing}/${res?.room} (${res?.id})`);
      void refreshStatus();
      return res;
    }],
    ['palace.mineWorkspace', async () => {
      // The server mines on its own queue (the one saves and the startup
      // mine use), so this never races a second process for the palace;
      // its $/progress drives the status bar.
      const res = await client.mine();
      const n = res.queued.length;
      void vscode.window.showInformationMessage(n ? `Palace: mining ${plural(n, 'folder')}` : 'Palace: no workspace folder to mine.');
      return res;
    }],
    ['palace.showStatus', async () => {
      const st: PalaceStatus = await client.status();
      status.drawers = st?.drawers; notice = String(st?.notice ?? ''); render();
      pages.show('palace.status', 'Palace Status', statusHtml(st, makeNonce()));
      return st;
    }],
    ['palace.showMap', async () => {
      const nonce = makeNonce();
      const res = await client.map({ nonce });
      lastMap = res.map as typeof lastMap;
      pages.show('palace.map', 'Palace Map', withCsp(res.html, nonce), onPageMessage, true);
      return res;
    }],
    ['palace.showGraph', (name?: string) => showGraph(typeof name === 'string' ? name : undefined)],
    ['palace.wakeUp', async () => {
      const wing = vscode.workspace.getConfiguration('palace').get<string>('wing', '') || undefined;
      const res = await client.wakeUp(wing ? { wing } : {});
      const text = res.text;
      if (!text) { void vscode.window.showWarningMessage('Palace: the wake-up is empty (nothing in the palace to show yet); the clipboard is unchanged.'); return text; }
      await vscode.env.clipboard.writeText(text);
      // Shown too: the text an agent's SessionStart gets, to read here.
      wakeUpText = text;
      wakeUpEmitter.fire(WAKE_UP);
      let doc = await vscode.workspace.openTextDocument(WAKE_UP);
      if (doc.languageId !== 'markdown') doc = await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
      await vscode.window.showTextDocument(doc, { preview: true });
      void vscode.window.showInformationMessage(`Palace: wake-up shown and copied (${text.length} characters).`);
      return text;
    }],
    ['palace.forgetDrawer', async (arg?: DrawerItem | Hit | string) => {
      let id: string | undefined = typeof arg === "string" ? arg : (arg as DrawerItem)?.hit?.id ?? (arg as Hit)?.id;
      if (!id) id = await vscode.window.showInputBox({ title: 'Forget drawer', placeHolder: 'drawer id' });
      if (!id) return;
      const ok = await vscode.window.showWarningMessage(`Forget drawer ${id}?`, { modal: true }, 'Forget');
      if (ok !== 'Forget') return;
      const res = await client.forget(id);
      void vscode.window.showInformationMessage(res?.deleted ? `Palace: forgot ${id}` : res?.already_deleted ? `Palace: ${id} was already forgotten; nothing changed` : `Palace: not forgotten`);
      void relevant.update(vscode.window.activeTextEditor);
      void refreshStatus();
      return res;
    }],
    ['palace.restartServer', () => client.restart()],
  ];
  for (const [id, fn] of cmds) {
    context.subscriptions.push(vscode.commands.registerCommand(id, async (...a: unknown[]) => {
      try { return await fn(...a); } catch (err) {
        output.error(`Palace: ${id} failed: ${String(err)}`);
        void vscode.window.showErrorMessage(plainMarkdown(`Palace: ${String((err as Error).message ?? err)}`));
      }
    }));
  }

  context.subscriptions.push(
    output, bar, tree, docEmitter, pages,
    vscode.window.registerWebviewViewProvider('palace.search', search),
    vscode.window.onDidChangeActiveTextEditor((e) => update(e)),
    vscode.window.onDidChangeTextEditorSelection((e) => { if (e.textEditor === vscode.window.activeTextEditor) update(e.textEditor); }),
    vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('palace.serverPath') || e.affectsConfiguration('palace.home') || e.affectsConfiguration('palace.wing') || e.affectsConfiguration('palace.mineOnSave') || e.affectsConfiguration('palace.hover')) void client.restart(); }),
    { dispose: () => update.cancel() },
  );

  registerMcp(context);

  const started = await client.start();
  if (started) update(vscode.window.activeTextEditor);
  return { client, relevant, status, refreshStatus, refreshRelevant: () => relevant.update(vscode.window.activeTextEditor) };
}

/** Lets agents (Copilot chat) use `palace serve --mcp`, on VS Code versions that have the API. */
function registerMcp(context: vscode.ExtensionContext) {
  const lm = (vscode as any).lm;
  const McpStdio = (vscode as any).McpStdioServerDefinition;
  if (!lm || typeof lm.registerMcpServerDefinitionProvider !== 'function' || !McpStdio) return;
  try {
    context.subscriptions.push(lm.registerMcpServerDefinitionProvider('palace.mcp', {
      provideMcpServerDefinitions: () => {
        const cfg = vscode.workspace.getConfiguration('palace');
        const bin = resolveServer(cfg.get<string>('serverPath', ''));
        if (!bin) return [];
        const env: Record<string, string> = {};
        if (cfg.get<string>('home')) env.PALACE_HOME = cfg.get<string>('home')!;
        return [new McpStdio('Palace', bin, ['serve', '--mcp'], env)];
      },
    }));
  } catch { /* API shape changed: skip */ }
}

export async function deactivate(): Promise<void> {
  await palace?.stop();
}
