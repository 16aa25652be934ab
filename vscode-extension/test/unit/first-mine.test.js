'use strict';
// A file opened before the first mine ends: the Relevant panel must show
// the definition when the mine writes it, with no cursor move and no
// refresh from the test. Its own file (node --test runs each file in its own
// process): the extension activates here on a fresh palace whose first
// mine is slow enough to open a file during it.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('./vscode-stub');
const T = vscode.__test;

const BIN = process.env.PALACE_BIN || path.resolve(__dirname, '../../../bin/palace');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'palace-first-mine-'));
const ws = path.join(tmp, 'fixture');
fs.cpSync(path.join(__dirname, '../fixture/workspace'), ws, { recursive: true });
// Notes that sort before the fixture's code and take the mine a few
// seconds (about 0.5 ms a file): the file below is opened while they are
// mined, before checksum.go is. They share no word with computeChecksum.
const FILLER = 12000;
fs.mkdirSync(path.join(ws, 'aaa-notes'));
for (let i = 0; i < FILLER; i++) {
  fs.writeFileSync(path.join(ws, 'aaa-notes', `note${i}.md`), `# Note ${i}\n\nTenants ask about quotas and retries in meeting ${i}.\n`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(fn, ms, what) {
  const end = Date.now() + ms;
  for (;;) { const v = await fn(); if (v) return v; if (Date.now() > end) throw new Error(`timed out waiting for ${what}`); await sleep(50); }
}

let ext;
test.after(async () => { if (ext) await ext.deactivate(); fs.rmSync(tmp, { recursive: true, force: true }); });

test('a file opened before the first mine ends: the definition appears in Relevant without moving the cursor', async () => {
  assert.ok(fs.existsSync(BIN), `palace binary at ${BIN} (set PALACE_BIN)`);
  Object.assign(T.state.config, { 'palace.serverPath': BIN, 'palace.home': path.join(tmp, 'home'), 'palace.wing': 'fixture' });
  vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(ws), name: 'fixture', index: 0 }];
  // The editor is open on computeChecksum before the extension starts; the
  // cursor never moves after this.
  const file = path.join(ws, 'upload.go');
  const text = fs.readFileSync(file, 'utf8');
  const line = text.split('\n').findIndex((l) => l.includes('computeChecksum('));
  const col = text.split('\n')[line].indexOf('computeChecksum') + 3;
  T.openEditor(T.makeDocument(vscode.Uri.file(file), text, 'go'), new vscode.Selection(line, col, line, col));

  ext = require('../../dist/extension.js');
  const opened = Date.now();
  const api = await ext.activate(T.makeContext());
  // Every answer the panel showed, with whether a mine was running then.
  const shown = [];
  const isDefinition = (h) => /checksum\.go$/.test(h.source || '') && /definition of computeChecksum/.test(h.why || '');
  api.relevant.onDidChangeTreeData(() => shown.push({
    at: Date.now(), mining: !!api.status.mining, definition: isDefinition(api.relevant.hits[0] || {}), message: T.state.treeViews['palace.relevant'].message,
  }));
  let mineEnded = 0;
  const watchEnd = setInterval(() => { if (!mineEnded && shown.length && !api.status.mining && api.status.state === 'running' && T.state.statusBar[0].text.startsWith('$(database)')) mineEnded = Date.now(); }, 20);
  try {
    await until(() => shown.length, 15000, 'the panel\'s first answer');
    // The precondition: the first answer came during the first mine,
    // before the definition was in the palace.
    assert.strictEqual(shown[0].definition, false, 'the first answer already held the definition: the mine ended too soon for this test ' + JSON.stringify(shown[0]));
    assert.strictEqual(shown[0].mining, true, 'the first answer came after the mine: ' + JSON.stringify(shown[0]));
    const got = await until(() => shown.find((s) => s.definition), 30000,
      'the definition of computeChecksum in the panel (answers shown: ' + JSON.stringify(shown.slice(0, 3)) + ')');
    const tree = T.state.treeProviders['palace.relevant'];
    assert.match(tree.getChildren()[0].hit.source, /checksum\.go$/);
    assert.strictEqual(T.state.treeViews['palace.relevant'].message, undefined, 'no "no drawers yet" message beside the rows');
    // A server message's markdown is never shown with its backticks.
    for (const s of shown) assert.ok(!/[`*]{1,2}/.test(s.message || ''), 'raw markdown in the message: ' + s.message);
    console.log(`first mine of ${FILLER + 4} files: panel's first answer ${shown[0].at - opened} ms after activation (mining), ` +
      `the definition ${got.at - opened} ms after activation; the mine's end seen ${mineEnded ? mineEnded - opened + ' ms' : 'not yet'}; ${shown.length} answers`);
  } finally { clearInterval(watchEnd); }
});
