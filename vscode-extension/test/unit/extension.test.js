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
const progress = [];
const didIndex = [];

test.before(async () => {
  assert.ok(fs.existsSync(BIN), `palace binary at ${BIN} (set PALACE_BIN)`);
  Object.assign(T.state.config, { 'palace.serverPath': BIN, 'palace.home': path.join(tmp, 'home'), 'palace.wing': 'fixture' });
  vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(ws), name: 'fixture', index: 0 }];
  ext = require('../../dist/extension.js');
  api = await ext.activate(T.makeContext());
  const origP = api.client.client.progressListener;
  api.client.client.progressListener = (v) => { progress.push(v); origP(v); };
  api.client.client.onNotification('palace/didIndex', (n) => didIndex.push(n));
});

test.after(async () => { await ext.deactivate(); fs.rmSync(tmp, { recursive: true, force: true }); });

test('server starts, mines the workspace, status bar shows the drawer count', async () => {
  assert.strictEqual(api.client.running, true);
  const st = await until(async () => { const s = await api.client.status(); return JSON.stringify(s).includes('fixture') && s; }, 15000, 'status');
  await until(async () => { await api.refreshStatus(); return api.status.drawers > 0 && !api.status.mining; }, 15000, 'drawers mined');
  const bar = T.state.statusBar[0];
  assert.match(bar.text, /Palace: \d+ drawers/);
  assert.ok(st.server, 'status has server part');
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
  const item = items.find((i) => /checksum\.go:\d+/.test(i.label));
  assert.ok(item, 'tree item for checksum.go: ' + items.map((i) => i.label).join(', '));
  assert.match(String(item.tooltip), /why: .*computeChecksum/);
  // Selecting it jumps to the source lines.
  await vscode.commands.executeCommand(item.command.command, ...item.command.arguments);
  assert.match(T.state.shown.doc.uri.fsPath, /checksum\.go$/);
  assert.ok(T.state.shown.opts.selection, 'jumps to lines');
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
  assert.ok(res && res.added && res.id, 'remember answered: ' + JSON.stringify(res));
  assert.strictEqual(res.room, 'decisions');
  rememberedId = res.id;
  T.state.quickPickAnswers.push((items) => items.find((i) => i.hit.id === rememberedId));
  const hits = await vscode.commands.executeCommand('palace.search', 'exponential backoff');
  assert.ok(hits.some((h) => h.id === rememberedId), 'search finds the remembered drawer');
  // A drawer with uri+range jumps to the file; open it as a virtual document explicitly too.
  await vscode.commands.executeCommand('palace.openDrawer', { id: rememberedId });
  assert.strictEqual(T.state.shown.doc.uri.scheme, 'palace-drawer');
  assert.match(T.state.shown.doc.getText(), /exponential backoff capped/);
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

test('Wake Up copies to the clipboard; Forget deletes the drawer', async () => {
  const text = await vscode.commands.executeCommand('palace.wakeUp');
  assert.ok(text && text.length > 0);
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
  const { PalaceClient } = require('../../dist/extension.js');
  T.state.config['palace.serverPath'] = path.join(tmp, 'nope', 'palace');
  const before = T.state.messages.length;
  await vscode.commands.executeCommand('palace.restartServer');
  const msg = T.state.messages.slice(before).find((m) => m[0] === 'error');
  assert.ok(msg, 'error shown');
  assert.match(msg[1], /not found/);
  assert.deepStrictEqual(msg[2], ['Open Docs', 'Open Settings']);
  assert.match(T.state.statusBar[0].text, /no server/);
});
