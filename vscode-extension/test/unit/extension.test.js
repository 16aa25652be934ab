'use strict';
// Runs the real bundle (dist/extension.js) and the real vscode-languageclient against the real palace binary.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('./vscode-stub');
const T = vscode.__test;

const BIN = process.env.PALACE_BIN || path.resolve(__dirname, '../../../bin/palace');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'palace-ext-'));
const ws = path.join(tmp, 'fixture');
fs.cpSync(path.join(__dirname, '../fixture/workspace'), ws, { recursive: true });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(fn, ms = 15000, what = 'condition') {
  const end = Date.now() + ms;
  for (;;) { const v = await fn(); if (v) return v; if (Date.now() > end) throw new Error(`timed out waiting for ${what}`); await sleep(100); }
}

let ext, api;
const didIndex = [];

// The fixture folder's entry in palace/status (state, finished mines, last mine).
async function fixtureFolder() {
  const st = await api.client.status();
  return st.server.folders.find((f) => f.path === ws);
}

// progressEndedSince: from the status bar's texts[from] on, a mine's
// $/progress showed ("mining", from begin or report) and then ended: only
// an 'end' clears the mining text, and the bar then shows the drawer count.
function progressEndedSince(from) {
  const texts = T.state.statusBar[0].texts.slice(from);
  const i = texts.findIndex((t) => /Palace: mining/.test(t));
  return i >= 0 && texts.slice(i + 1).some((t) => t.startsWith('$(database) Palace: '));
}

test.before(async () => {
  assert.ok(fs.existsSync(BIN), `palace binary at ${BIN} (set PALACE_BIN)`);
  Object.assign(T.state.config, { 'palace.serverPath': BIN, 'palace.home': path.join(tmp, 'home'), 'palace.wing': 'fixture' });
  vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(ws), name: 'fixture', index: 0 }];
  ext = require('../../dist/extension.js');
  api = await ext.activate(T.makeContext());
  api.client.client.onNotification('palace/didIndex', (n) => didIndex.push(n));
});

test.after(async () => { await ext.deactivate(); fs.rmSync(tmp, { recursive: true, force: true }); });

test('server starts and mines the workspace; the status bar shows its $/progress, then the drawer count', async () => {
  assert.strictEqual(api.client.running, true);
  const f = await until(async () => { const x = await fixtureFolder(); return x && x.mines >= 1 && x.state === 'idle' && x; }, 15000, 'the startup mine of the fixture folder');
  assert.ok(!f.last.error && f.last.drawers_added > 0, 'startup mine: ' + JSON.stringify(f.last));
  // The status bar item exists before the server starts, so it saw the whole mine.
  await until(() => progressEndedSince(0), 15000, 'the startup mine\'s progress to begin and end in the status bar');
  await api.refreshStatus();
  const st = await api.client.status();
  assert.ok(st.drawers > 0, 'palace/status drawers: ' + st.drawers);
  assert.strictEqual(T.state.statusBar[0].text, `$(database) Palace: ${st.drawers} drawers`);
  // One status item while mining: ours. The languageclient's own progress
  // feature would show the mine again as a window progress.
  assert.deepStrictEqual(T.state.progress, [], 'no second progress item: ' + JSON.stringify(T.state.progress));
});

// The server's routine lines (the mine, the folders) reach the Palace
// output as window/logMessage at their level; none is an error.
test('the Palace output holds no [error] line after startup and the first mine', () => {
  const out = T.state.outputs.find((o) => o.name === 'Palace');
  const errors = out.lines.filter((l) => l.startsWith('[error]'));
  assert.deepStrictEqual(errors, []);
  assert.ok(out.lines.length > 0, 'the output has lines');
});

test('Relevant: cursor on computeChecksum in upload.go lists checksum.go with why', async () => {
  const file = path.join(ws, 'upload.go');
  const text = fs.readFileSync(file, 'utf8');
  const doc = T.makeDocument(vscode.Uri.file(file), text, 'go');
  const line = text.split('\n').findIndex((l) => l.includes('computeChecksum('));
  const col = text.split('\n')[line].indexOf('computeChecksum') + 3;
  T.openEditor(doc, new vscode.Selection(line, col, line, col));
  await until(async () => { await api.refreshRelevant(); return api.relevant.hits.some((h) => /checksum\.go/.test(h.uri || h.source || '')); }, 15000, 'relevant hit');
  const tree = T.state.treeProviders['palace.relevant'];
  const items = tree.getChildren();
  // The definition of the name at the cursor, in another file, is the first row.
  const item = items[0];
  assert.ok(item && /checksum\.go:\d+/.test(item.description), 'first tree item is checksum.go: ' + items.map((i) => i.description).join(', '));
  assert.match(String(item.tooltip), /why: definition of computeChecksum/);
  // A row a person reads: the why on the first line, where it is beside
  // it (no catch-all room), and the snippet cut around the match as the
  // second line, the match highlighted.
  assert.strictEqual(item.label, 'definition of computeChecksum');
  assert.match(item.description, /^checksum\.go:\d+-\d+$/);
  const [snip] = tree.getChildren(item);
  assert.ok(snip && snip.label.label, 'the snippet line under the row');
  const [a, b] = snip.label.highlights[0] || [];
  assert.match(snip.label.label.slice(a, b), /computeChecksum/i, JSON.stringify(snip.label));
  assert.ok(snip.label.label.length <= 92, 'cut around the match: ' + snip.label.label);
  assert.deepStrictEqual(tree.getChildren(snip), []);
  // The row names the path relative to the workspace folder; the view names
  // what the rows are relevant to; no raw match markers anywhere.
  const hit = api.relevant.hits[0];
  assert.strictEqual(hit.relPath, 'checksum.go', JSON.stringify(hit));
  assert.match(item.description, /^checksum\.go:\d+-\d+/);
  // A file in a subfolder is shown by its path in the workspace, not its base name.
  await until(async () => { await api.refreshRelevant(); return api.relevant.hits.some((h) => /digest\.go$/.test(h.source || '')); }, 15000, 'the store/digest.go mention');
  const sub = tree.getChildren().find((i) => i.hit.relPath === 'store/digest.go');
  assert.ok(sub, 'store/digest.go row: ' + JSON.stringify(api.relevant.hits.map((h) => [h.source, h.relPath])));
  // Its room, store, only repeats the path's first folder: not shown.
  assert.strictEqual(sub.hit.roomRedundant, true, JSON.stringify(sub.hit));
  assert.match(sub.hit.why ? sub.description : sub.label, /^store\/digest\.go:\d+-\d+$/);
  // The identifier is the view's description, which VS Code does not upper-case as it does titles.
  assert.strictEqual(T.state.treeViews['palace.relevant'].title, undefined);
  assert.strictEqual(T.state.treeViews['palace.relevant'].description, 'computeChecksum');
  assert.strictEqual(T.state.treeViews['palace.relevant'].message, undefined);
  for (const i of items) assert.ok(!/\*\*/.test(`${i.label} ${i.description} ${i.tooltip} ${i.snippet && i.snippet.label.label}`), 'raw markers: ' + i.description);
  // Selecting it jumps to the source lines.
  await vscode.commands.executeCommand(item.command.command, ...item.command.arguments);
  assert.match(T.state.shown.doc.uri.fsPath, /checksum\.go$/);
  assert.ok(T.state.shown.opts.selection, 'jumps to lines');
});

test('Relevant: the cursor on an error variable (err in fetch.go) shows the server\'s note, one line over the rows', async () => {
  const file = path.join(ws, 'fetch.go');
  const text = fs.readFileSync(file, 'utf8');
  const doc = T.makeDocument(vscode.Uri.file(file), text, 'go');
  const line = text.split('\n').findIndex((l) => l.includes('err != nil'));
  const col = text.split('\n')[line].indexOf('err != nil') + 1;
  T.openEditor(doc, new vscode.Selection(line, col, line, col));
  await until(async () => { await api.refreshRelevant(); return api.relevant.about === 'fetchBlob' && api.relevant.hits.length; }, 15000, 'an answer about fetchBlob');
  const tree = T.state.treeProviders['palace.relevant'];
  const items = tree.getChildren();
  // The first item is the note: no label, the sentence as its (muted) description, no command, no children.
  const note = items[0];
  assert.strictEqual(note.contextValue, 'note', JSON.stringify(items.map((i) => [i.label, i.description])));
  assert.strictEqual(note.label, '');
  assert.strictEqual(note.description, 'Skipped err under the cursor (a name every file uses); the hits are about fetchBlob, around it.');
  assert.strictEqual(note.tooltip, note.description);
  assert.strictEqual(note.command, undefined);
  assert.deepStrictEqual(tree.getChildren(note), []);
  // The rows follow it, one per hit; the view names what they are about.
  assert.deepStrictEqual(items.slice(1).map((i) => i.hit.id), api.relevant.hits.map((h) => h.id));
  assert.strictEqual(T.state.treeViews['palace.relevant'].description, 'fetchBlob');
  // A word that is a name gives no note: the line goes away.
  const at = text.split('\n')[line].indexOf('verifyUpload') + 2;
  T.openEditor(doc, new vscode.Selection(line, at, line, at));
  await until(async () => { await api.refreshRelevant(); return api.relevant.about === 'verifyUpload'; }, 15000, 'an answer about verifyUpload');
  assert.ok(!tree.getChildren().some((i) => i.contextValue === 'note'), 'no note on a name');
});

test('palace.hover, on by default: hovering computeChecksum in upload.go shows how many memories mention it', async () => {
  assert.strictEqual(api.client.initializationOptions().hover, true);
  assert.strictEqual((await api.client.status()).server.hover, true, 'the server was started with hover on');
  // The languageclient registered the server's hover with the editor: hover
  // through it, as VS Code does when the mouse rests on a word.
  const h = T.state.hoverProviders.find((x) => vscode.languages.match(x.selector, { uri: vscode.Uri.file(path.join(ws, 'upload.go')), languageId: 'go' }));
  assert.ok(h, 'a hover provider for a Go file: ' + T.state.hoverProviders.length + ' registered');
  const file = path.join(ws, 'upload.go');
  const text = fs.readFileSync(file, 'utf8');
  const doc = T.state.activeTextEditor && T.state.activeTextEditor.document.uri.fsPath === file ? T.state.activeTextEditor.document : T.makeDocument(vscode.Uri.file(file), text, 'go');
  const line = text.split('\n').findIndex((l) => l.includes('computeChecksum('));
  const col = text.split('\n')[line].indexOf('computeChecksum') + 3;
  const hover = await h.provider.provideHover(doc, new vscode.Position(line, col), new vscode.CancellationTokenSource().token);
  assert.ok(hover, 'a hover on computeChecksum');
  const contents = [].concat(hover._args[0]).map((c) => (c && c.value) || String(c)).join('\n');
  assert.match(contents, /Palace:\*{0,2} \d+ memor(y|ies) mentions? `computeChecksum`/, contents);
});

let rememberedId;
test('Remember Selection (wing/room pick) then Search finds it, drawer opens as a virtual document', async () => {
  const file = path.join(ws, 'NOTES.md');
  const doc = T.makeDocument(vscode.Uri.file(file), fs.readFileSync(file, 'utf8'), 'markdown');
  T.openEditor(doc, new vscode.Selection(2, 0, 2, 57));
  T.state.quickPickAnswers.push((items) => items.find((i) => i.value === 'fixture') || items[0]);
  T.state.inputAnswers.push('decisions');
  T.state.warningAnswers.push('Remember anyway'); // the mined NOTES.md drawer is a near duplicate
  const res = await vscode.commands.executeCommand('palace.rememberSelection');
  // The server may not call the line a near duplicate (its threshold is
  // its own): an answer left unused must not confirm a later dialog
  // (Forget's, below).
  T.state.warningAnswers.splice(0);
  assert.ok(res && res.added && res.id, 'remember answered: ' + JSON.stringify(res));
  assert.strictEqual(res.room, 'decisions');
  rememberedId = res.id;
  T.state.quickPickAnswers.push((items) => items.find((i) => i.hit.id === rememberedId));
  const hits = await vscode.commands.executeCommand('palace.search', 'exponential backoff');
  const note = hits.find((h) => h.id === rememberedId);
  assert.ok(note, 'search finds the remembered drawer');
  // A note has no source lines to jump to (no uri/range): selecting it
  // opened it as a read-only virtual document.
  assert.ok(!note.range, 'a note has no range: ' + JSON.stringify(note));
  assert.strictEqual(T.state.shown.doc.uri.scheme, 'palace-drawer');
  // The tab is named by the citation, never by the id.
  const shownPath = T.state.shown.doc.uri.path;
  assert.ok(note.citation && !shownPath.includes(rememberedId), `tab path ${shownPath} for citation ${note.citation}`);
  assert.strictEqual(shownPath, '/' + note.citation.split('/').filter((x) => x && x !== '..' && x !== '.').join('/'));
  await vscode.commands.executeCommand('palace.openDrawer', { id: rememberedId });
  assert.strictEqual(T.state.shown.doc.uri.scheme, 'palace-drawer');
  assert.ok(!T.state.shown.doc.uri.path.includes(rememberedId), 'opened by id alone, still titled by citation: ' + T.state.shown.doc.uri.path);
  assert.match(T.state.shown.doc.getText(), /exponential backoff capped/);
});

test('the Search view: a submitted form searches, rows carry match segments (no raw markers), Enter on a row opens it', async () => {
  const view = T.resolveWebviewView('palace.search');
  assert.match(view.webview.html, /<button id="go" type="submit">Search<\/button>/);
  view.receive({ type: 'ready' });
  view.receive({ type: 'search', query: 'computeChecksum', wing: 'fixture', room: '' });
  const res = await until(() => view.posted.find((m) => m.type === 'results'), 15000, 'results posted to the view');
  assert.ok(!res.error, res.error);
  const row = res.items.find((i) => /checksum\.go:\d+/.test(i.description || i.label));
  assert.ok(row, 'checksum.go row: ' + res.items.map((i) => i.description || i.label).join(', '));
  assert.ok(row.snippet.some((s) => s.match && /computeChecksum/i.test(s.text)), JSON.stringify(row.snippet));
  assert.ok(!row.snippet.some((s) => s.text.includes('**')) && !row.description.includes('**'));
  assert.ok(!/ · general/.test(row.description || row.label), 'no catch-all room on the row: ' + (row.description || row.label));
  assert.strictEqual(res.notice, undefined, 'no lexical-only notice on answers');
  assert.strictEqual(res.message, `${res.items.length} result${res.items.length === 1 ? '' : 's'} in fixture`);
  view.receive({ type: 'open', id: row.id });
  await until(() => /checksum\.go$/.test(T.state.shown.doc.uri.fsPath), 5000, 'the row opened');
  // An empty answer under a scope says the scope, and how to leave it.
  const n = view.posted.length;
  view.receive({ type: 'search', query: 'quokkaZephyr', wing: 'fixture', room: 'store' });
  const empty = await until(() => view.posted.slice(n).find((m) => m.type === 'results'), 15000, 'the scoped empty answer');
  assert.deepStrictEqual(empty.items, []);
  assert.strictEqual(empty.message, 'No results for “quokkaZephyr” in fixture/store: clear the scope to search everywhere.');
});

test('Show Status opens a readable page, not JSON in the output', async () => {
  const st = await vscode.commands.executeCommand('palace.showStatus');
  const panel = T.state.panels.find((p) => p.viewType === 'palace.status');
  assert.ok(panel, 'a status panel');
  assert.strictEqual(panel.title, 'Palace Status');
  assert.match(panel.webview.html, new RegExp(`<h1>Palace: ${st.drawers} drawers</h1>`));
  assert.match(panel.webview.html, /<th>fixture<\/th>/);
  assert.ok(!panel.webview.html.includes('{"'), 'no raw JSON');
  const out = T.state.outputs.find((o) => o.name === 'Palace');
  assert.ok(!out.lines.some((l) => l.includes('"drawers":')), 'status is not dumped to the output');
});

test('Show Map: the server page in a webview with a fresh nonce and strict CSP; a room click lists its drawers with the scope set, no search', async () => {
  await vscode.commands.executeCommand('palace.showMap');
  const panel = T.state.panels.find((p) => p.viewType === 'palace.map');
  assert.ok(panel, 'a map panel');
  const html = panel.webview.html;
  const nonce = /script-src 'nonce-([A-Za-z0-9]+)'/.exec(html);
  assert.ok(nonce, 'a nonce in the CSP');
  assert.match(html, /default-src 'none'/);
  assert.ok(html.includes(`<script nonce="${nonce[1]}"`), 'the script carries the nonce');
  assert.deepStrictEqual(panel.webview.options, { enableScripts: true, localResourceRoots: [] });
  assert.match(html, /fixture/);
  const view = T.resolveWebviewView('palace.search');
  view.receive({ type: 'ready' });
  panel.receive({ type: 'openRoom', wing: 'fixture', room: 'decisions' });
  const fill = await until(() => view.posted.find((m) => m.type === 'fill'), 5000, 'the search form filled');
  assert.deepStrictEqual([fill.query, fill.wing, fill.room], ['', 'fixture', 'decisions']);
  const res = await until(() => view.posted.find((m) => m.type === 'results'), 15000, 'the room listed');
  assert.ok(!res.error, res.error);
  // The room's drawers, not a search for the word "decisions" (which the note does not say).
  assert.strictEqual(res.query, '');
  assert.ok(res.items.some((i) => i.id === rememberedId), 'the remembered note listed: ' + JSON.stringify(res.items));
  assert.match(res.message, /^\d+ drawers? in fixture\/decisions/);
  view.receive({ type: 'open', id: rememberedId });
  await until(() => T.state.shown && /exponential backoff capped/.test(T.state.shown.doc.getText()), 5000, 'the listed note opened');
});

test('Show Knowledge Graph: the graph page of an entity; an unknown word offers the known entities, no error', async () => {
  const { execFileSync } = require('child_process');
  execFileSync(BIN, ['kg', 'add', 'Checksum Service', 'owner', 'Storage Team', '--from', '2025-01-01'], { env: { ...process.env, PALACE_HOME: T.state.config['palace.home'] } });
  const res = await vscode.commands.executeCommand('palace.showGraph', 'Checksum Service');
  assert.ok(res && res.facts.length >= 1, JSON.stringify(res && res.facts));
  const panel = T.state.panels.find((p) => p.viewType === 'palace.graph');
  assert.match(panel.title, /Checksum Service/);
  assert.match(panel.webview.html, /Storage Team/);
  const before = T.state.messages.length;
  const out = T.state.outputs.find((o) => o.name === 'Palace');
  const lines = out.lines.length;
  let offered;
  T.state.quickPickAnswers.push((items) => { offered = items; return items.find((i) => i.label === 'Checksum Service'); });
  const picked = await vscode.commands.executeCommand('palace.showGraph', 'legacyArgs');
  assert.ok(offered && offered.some((i) => i.label === 'Checksum Service' && /1 fact/.test(i.description)), JSON.stringify(offered));
  assert.strictEqual(picked && picked.entity, 'Checksum Service');
  assert.match(T.state.panels.find((p) => p.viewType === 'palace.graph' && !p.disposed).title, /Checksum Service/);
  assert.deepStrictEqual(T.state.messages.slice(before).filter((m) => m[0] === 'error'), []);
  assert.deepStrictEqual(out.lines.slice(lines).filter((l) => l.startsWith('[error]')), []);
});

test('palace/changed: a write by another process refreshes the drawer count', async () => {
  const { execFileSync } = require('child_process');
  const before = (await api.client.status()).drawers;
  const from = T.state.statusBar[0].texts.length;
  execFileSync(BIN, ['remember', 'The nightly compaction job runs at 03:15 UTC.', '--wing', 'fixture', '--room', 'ops'], { env: { ...process.env, PALACE_HOME: T.state.config['palace.home'] } });
  // Nothing here asks for the status: only the notification can update the bar.
  await until(() => T.state.statusBar[0].texts.slice(from).includes(`$(database) Palace: ${before + 1} drawers`), 10000, 'the bar to show the new count');
});

test('palace/changed: a note about the word at the cursor, written by another process, shows in Relevant without a cursor move', async () => {
  const { execFileSync } = require('child_process');
  const file = path.join(ws, 'upload.go');
  const text = fs.readFileSync(file, 'utf8');
  const line = text.split('\n').findIndex((l) => l.includes('computeChecksum('));
  const col = text.split('\n')[line].indexOf('computeChecksum') + 3;
  T.openEditor(T.makeDocument(vscode.Uri.file(file), text, 'go'), new vscode.Selection(line, col, line, col));
  await until(() => api.relevant.about === 'computeChecksum', 10000, 'the panel on computeChecksum');
  execFileSync(BIN, ['remember', 'computeChecksum must stay constant-time: the quokka audit found a timing leak.', '--wing', 'fixture', '--room', 'security'],
    { env: { ...process.env, PALACE_HOME: T.state.config['palace.home'] } });
  // Nothing here asks again: only palace/changed can bring the note.
  await until(() => api.relevant.hits.some((h) => /quokka audit/.test(h.content || h.snippet || '')), 10000, 'the new note in the panel');
});

test('didSave re-mines the file (palace/didIndex) and Search finds the new text', async () => {
  const file = path.join(ws, 'quota.go');
  fs.writeFileSync(file, 'package storage\n\n// quotaZebraflux limits tenants to nine uploads per minute.\nfunc quotaZebraflux() int { return 9 }\n');
  const doc = T.makeDocument(vscode.Uri.file(file), fs.readFileSync(file, 'utf8'), 'go');
  T.openEditor(doc);
  await sleep(200);
  T.save(doc);
  const n = await until(() => didIndex.find((x) => x.uri && x.uri.endsWith('quota.go')), 15000, 'didIndex');
  assert.ok(!n.skipped, JSON.stringify(n));
  const res = await api.client.search({ query: 'quotaZebraflux' });
  assert.ok(res.hits.some((h) => /quota\.go/.test(h.uri || h.source || '')), 'search finds saved file');
});

test('Mine Workspace queues a mine on the server (palace/mine): progress in the status bar, a new file becomes searchable', async () => {
  await until(async () => (await fixtureFolder()).state === 'idle', 15000, 'no mine pending');
  const before = (await fixtureFolder()).mines;
  // Written behind the editor's back: no save, no watcher, so only a mine can find it.
  const file = path.join(ws, 'ledger.go');
  fs.writeFileSync(file, 'package storage\n\n// quokkaLedger records each upload once a mine has seen it.\nfunc quokkaLedger() {}\n');
  const inLedger = (res) => res.hits.some((h) => /ledger\.go$/.test(h.uri || h.source || ''));
  assert.ok(!inLedger(await api.client.search({ query: 'quokkaLedger' })), 'ledger.go is not in the palace before the mine');
  const from = T.state.statusBar[0].texts.length;
  const msgs = T.state.messages.length;
  const res = await vscode.commands.executeCommand('palace.mineWorkspace');
  assert.deepStrictEqual(res.queued.map((q) => [q.path, q.wing]), [[ws, 'fixture']], JSON.stringify(res));
  assert.ok(T.state.messages.slice(msgs).some((m) => m[0] === 'info' && m[1] === 'Palace: mining 1 folder'), JSON.stringify(T.state.messages.slice(msgs)));
  const f = await until(async () => { const x = await fixtureFolder(); return x.mines > before && x.state === 'idle' && x; }, 15000, 'the requested mine');
  assert.ok(!f.last.error && f.last.files_mined >= 1, 'requested mine: ' + JSON.stringify(f.last));
  await until(() => progressEndedSince(from), 15000, 'the requested mine\'s progress to begin and end in the status bar');
  assert.ok(inLedger(await api.client.search({ query: 'quokkaLedger' })), 'search finds the file the mine added');
  // One folder by uri; a uri that is no workspace folder is refused.
  const one = await api.client.mine({ uri: vscode.Uri.file(ws).toString() });
  assert.deepStrictEqual(one.queued.map((q) => q.path), [ws]);
  await until(async () => { const x = await fixtureFolder(); return x.mines > f.mines && x.state === 'idle'; }, 15000, 'the mine of one folder');
  await assert.rejects(api.client.mine({ uri: vscode.Uri.file(path.join(tmp, 'elsewhere')).toString() }),
    (e) => e.code === -32602 && /not a workspace folder/.test(e.message));
});

test('Wake Up copies to the clipboard (an empty one copies nothing); Forget deletes the drawer', async () => {
  const text = await vscode.commands.executeCommand('palace.wakeUp');
  assert.ok(text && text.length > 0);
  assert.strictEqual(T.state.clipboard, text);
  // Shown too, read-only (a virtual document), the text an agent's SessionStart gets.
  assert.strictEqual(T.state.shown.doc.uri.scheme, 'palace-wakeup');
  assert.strictEqual(T.state.shown.doc.getText(), text);
  assert.strictEqual(T.state.shown.doc.languageId, 'markdown');
  // A wing the palace does not hold is the server's invalid input, shown
  // with its reason (the wings there are); the clipboard is kept.
  T.state.config['palace.wing'] = 'nosuchwing';
  const before = T.state.messages.length;
  try {
    assert.strictEqual(await vscode.commands.executeCommand('palace.wakeUp'), undefined);
  } finally { T.state.config['palace.wing'] = 'fixture'; }
  assert.ok(T.state.messages.slice(before).some((m) => m[0] === 'error' && /nosuchwing.*no such wing/.test(m[1])), JSON.stringify(T.state.messages.slice(before)));
  assert.strictEqual(T.state.clipboard, text);
  T.state.warningAnswers.push('Forget');
  const res = await vscode.commands.executeCommand('palace.forgetDrawer', rememberedId);
  assert.strictEqual(res.deleted, true, JSON.stringify(res));
  const after = await api.client.search({ query: 'exponential backoff' });
  assert.ok(!after.hits.some((h) => h.id === rememberedId));
});

test('request errors surface with the server reason (-32602)', async () => {
  await assert.rejects(api.client.request('palace/relevant', { textDocument: { uri: 'file:///x' }, position: { line: 0, character: 0 }, limit: 'many' }), /limit/);
});

test('the server is restarted after a crash', async () => {
  const proc = api.client.client._serverProcess;
  assert.ok(proc && proc.pid, 'server process');
  process.kill(proc.pid, 'SIGKILL');
  await until(async () => { const p = api.client.client._serverProcess; return api.client.running && p && p.pid !== proc.pid; }, 20000, 'restart');
  const st = await api.client.status();
  assert.ok(st);
});

test('missing binary: clear message with a docs button', async () => {
  T.state.config['palace.serverPath'] = path.join(tmp, 'nope', 'palace');
  const before = T.state.messages.length;
  await vscode.commands.executeCommand('palace.restartServer');
  const msg = T.state.messages.slice(before).find((m) => m[0] === 'error');
  assert.ok(msg, 'error shown');
  assert.match(msg[1], /not found/);
  assert.deepStrictEqual(msg[2], ['Open Docs', 'Open Settings']);
  assert.match(T.state.statusBar[0].text, /no server/);
});
