// Integration tests: the real server binary driven by a real LSP client over
// stdio. Run with ./run.sh (or `node --test` with PALACE_LSP_CMD / PALACE_BIN
// set; see harness.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startServer, fileUri, serverCommand } from './harness.mjs';
import { writeFixture, files, cursor } from './fixture.mjs';

const tmp = (name) => mkdtempSync(join(tmpdir(), `palace-lsp-${name}-`));

// session starts a server on a fresh palace and fixture and initializes it.
async function session(t, initializationOptions = { wing: 'proj' }) {
  const home = tmp('home');
  const root = writeFixture(tmp('ws'));
  const client = startServer(home);
  t.after(() => {
    client.kill();
    rmSync(home, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });
  const init = await client.initialize([root], initializationOptions);
  return { client, root, home, init };
}

const mined = (client) => client.waitFor('$/progress', (p) => p.value.kind === 'end');

test('initialize advertises sync, folders and the palace methods', async (t) => {
  const { client, init } = await session(t);
  const caps = init.capabilities;
  assert.equal(caps.textDocumentSync.openClose, true);
  assert.equal(caps.textDocumentSync.change, 1, 'full-document sync: relevant sees unsaved edits');
  assert.deepEqual(caps.textDocumentSync.save, {}, 'save without text');
  assert.equal(caps.workspace.workspaceFolders.supported, true);
  assert.ok(caps.workspace.fileOperations.didDelete && caps.workspace.fileOperations.didRename);
  for (const m of ['palace/relevant', 'palace/search', 'palace/drawer', 'palace/remember', 'palace/forget', 'palace/status', 'palace/wakeUp']) {
    assert.ok(caps.experimental.palace.requests.includes(m), m);
  }
  assert.deepEqual(caps.experimental.palace.notifications, ['palace/didIndex', 'palace/changed']);
  assert.equal(caps.hoverProvider, undefined, 'hover is off by default');
  assert.equal(init.serverInfo.name, 'palace');
  await mined(client);
});

test('the first mine reports work-done progress, begin to end', async (t) => {
  const { client } = await session(t);
  await mined(client);
  const kinds = client.progress.map((n) => n.params.value.kind);
  assert.equal(kinds[0], 'begin');
  assert.equal(kinds.at(-1), 'end');
  assert.equal(client.progress[0].params.value.cancellable, true);
  assert.match(client.progress[0].params.value.title, /Palace: mining/);
  assert.ok(client.serverRequests.includes('window/workDoneProgress/create'));
  assert.ok(client.serverRequests.includes('client/registerCapability'), 'file watching is registered');
  assert.equal(client.registrations[0].method, 'workspace/didChangeWatchedFiles');
  const st = await client.request('palace/status');
  assert.ok(st.drawers >= 4, `drawers: ${st.drawers}`);
  assert.equal(st.server.folders[0].wing, 'proj');
});

test('didSave re-mines the file; a search finds the new text', async (t) => {
  const { client, root } = await session(t);
  await mined(client);
  const path = join(root, 'src/checksum.go');
  writeFileSync(path, files['src/checksum.go'] + '\n// quokkaflange: text added by the save.\n');
  const from = client.notes.length;
  await client.didSave(path);
  const n = await client.waitFor('palace/didIndex', (p) => p.uri === fileUri(path), { from });
  assert.ok(n.params.drawers >= 1, JSON.stringify(n.params));
  assert.equal(n.params.wing, 'proj');
  assert.equal(typeof n.params.ms, 'number');
  const res = await client.request('palace/search', { query: 'quokkaflange' });
  assert.equal(res.hits.length, 1);
  const hit = res.hits[0];
  assert.equal(hit.source, path);
  assert.equal(hit.uri, fileUri(path));
  assert.ok(hit.citation.startsWith(path + ':'));
  assert.ok(hit.time, 'hits carry their time');
  assert.match(hit.why, /quokkaflange/);
  // An ignored file is answered, and skipped.
  const ignored = join(root, 'scratch.tmp');
  writeFileSync(ignored, 'quokkaflange in an ignored file\n');
  await client.didSave(ignored);
  const skip = await client.waitFor('palace/didIndex', (p) => p.uri === fileUri(ignored));
  assert.equal(skip.params.skipped, 'ignored');
});

test('palace/relevant puts the expected drawer first, without the lines on screen', async (t) => {
  const { client, root } = await session(t);
  await mined(client);
  const path = join(root, cursor.file);
  await client.didOpen(path, readFileSync(path, 'utf8'), 'go');
  const res = await client.request('palace/relevant', {
    textDocument: { uri: fileUri(path) },
    position: { line: cursor.line, character: cursor.character },
  });
  assert.equal(res.clues.identifier, 'computeChecksum');
  assert.equal(res.clues.enclosing[0], 'verifyUpload');
  assert.match(res.query, /computeChecksum/);
  assert.ok(res.hits.length >= 2);
  assert.equal(res.hits[0].source, join(root, 'src/checksum.go'), `first: ${res.hits[0].citation} (${res.hits[0].why})`);
  assert.equal(res.hits[0].why, 'definition of computeChecksum');
  assert.equal(res.hits[1].source, join(root, 'docs/decisions.md'), `second: ${res.hits[1].citation} (${res.hits[1].why})`);
  assert.match(res.hits[1].why, /^mentions computeChecksum, verifyUpload \(enclosing\)/);
  for (const h of res.hits) {
    assert.notEqual(h.source, path, 'the drawer on screen is left out');
    for (const k of ['id', 'wing', 'room', 'kind', 'content', 'citation', 'why', 'score']) assert.ok(k in h, k);
  }
  assert.ok(res.excluded.length >= 1);
});

test('bad params and unknown methods are errors; the session survives', async (t) => {
  const { client } = await session(t);
  await assert.rejects(client.request('palace/unknown', {}), (e) => e.code === -32601 && /palace\/unknown/.test(e.message));
  await assert.rejects(client.request('palace/search', { query: 'x', limit: 'ten' }), (e) => e.code === -32602 && /limit: want an integer/.test(e.message));
  await assert.rejects(client.request('palace/search', { query: 'x', kind: 'poem' }), (e) => e.code === -32602 && /kind/.test(e.message));
  await assert.rejects(client.request('palace/relevant', { textDocument: { uri: 'file:///x.go' } }), (e) => e.code === -32602 && /position or range/.test(e.message));
  await assert.rejects(client.request('palace/drawer', { id: 'd_nope' }), (e) => e.code === -32602 && /not found/.test(e.message));
  const st = await client.request('palace/status');
  assert.equal(st.server.client, 'node-test');
});

test('remember a selection, read it back, forget it', async (t) => {
  const { client, root } = await session(t);
  await mined(client);
  const path = join(root, 'src/checksum.go');
  const r = await client.request('palace/remember', {
    uri: fileUri(path),
    range: { start: { line: 6, character: 0 }, end: { line: 8, character: 0 } },
  });
  assert.equal(r.added, true);
  assert.equal(r.source, `${path}:7-8`);
  const d = await client.request('palace/drawer', { id: r.id });
  assert.match(d.content, /computeChecksum returns/);
  const f = await client.request('palace/forget', { id: r.id });
  assert.equal(f.deleted, true);
  const w = await client.request('palace/wakeUp', {});
  assert.equal(w.wing, 'proj');
});

test('shutdown then exit ends the process with code 0', async (t) => {
  const { client } = await session(t);
  await mined(client);
  const exit = await client.shutdown();
  assert.deepEqual(exit, { code: 0, signal: null });
});

test('exit without shutdown ends the process with code 1', async (t) => {
  const { client } = await session(t, { mineOnStartup: false });
  await client.notify('exit');
  const exit = await client.exited;
  assert.deepEqual(exit, { code: 1, signal: null });
});

test('palace/relevant says what it is about, why it is empty, and where each hit is', async (t) => {
  const { client, root } = await session(t);
  await mined(client);
  const path = join(root, cursor.file);
  await client.didOpen(path, readFileSync(path, 'utf8'), 'go');
  const res = await client.request('palace/relevant', {
    textDocument: { uri: fileUri(path) },
    position: { line: cursor.line, character: cursor.character },
  });
  assert.equal(res.about, 'computeChecksum');
  assert.equal(res.empty, '');
  assert.ok(!('notice' in res), `no notice in relevant: ${res.notice}`);
  const [def, note] = res.hits;
  assert.equal(def.relPath, 'src/checksum.go');
  assert.equal(note.relPath, 'docs/decisions.md');
  // The rooms (src, docs) only repeat the folder: a list can leave them out.
  assert.equal(def.room, 'src');
  assert.equal(def.roomRedundant, true);
  assert.equal(note.roomRedundant, true);
  // About 160 characters of the drawer, the match still marked.
  assert.match(note.snippet, /\*\*computeChecksum\*\*/);
  assert.ok(note.snippet.replaceAll('**', '').length >= 120, note.snippet);

  // A place nothing else mentions explains the empty panel.
  const fresh = join(root, 'src/fresh.go');
  await client.didOpen(fresh, 'quuxfrobnicate()\n', 'go');
  const none = await client.request('palace/relevant', { textDocument: { uri: fileUri(fresh) }, position: { line: 0, character: 3 } });
  assert.deepEqual(none.hits, []);
  assert.equal(none.about, 'quuxfrobnicate');
  assert.equal(none.empty, 'Nothing in the palace mentions quuxfrobnicate.');

  // Search hits carry relPath too; the lexical-only notice is status's.
  const sr = await client.request('palace/search', { query: 'CRC-32C' });
  assert.ok(!('notice' in sr), `no notice in search: ${sr.notice}`);
  assert.ok(sr.hits.length >= 1);
  for (const h of sr.hits) assert.ok(!h.relPath.startsWith('/'), h.relPath);
  const st = await client.request('palace/status');
  assert.match(st.notice, /^lexical only/);
});

test('hover shows the drawer in a fenced code block', async (t) => {
  const { client, root } = await session(t, { wing: 'proj', hover: true });
  await mined(client);
  const path = join(root, cursor.file);
  await client.didOpen(path, readFileSync(path, 'utf8'), 'go');
  const h = await client.request('textDocument/hover', {
    textDocument: { uri: fileUri(path) },
    position: { line: cursor.line, character: cursor.character },
  });
  assert.equal(h.contents.kind, 'markdown');
  assert.match(h.contents.value, /```go\n[^]*func computeChecksum\(b \[\]byte\) uint32 \{\n[^]*```/);
  assert.doesNotMatch(h.contents.value, /^> /m);
});

test('palace/changed follows a write by another process (the CLI)', async (t) => {
  const { client, home } = await session(t);
  await mined(client);
  const before = (await client.request('palace/status')).drawers;
  const from = client.notes.length;
  const [bin] = serverCommand();
  await promisify(execFile)(bin, ['--home', home, 'remember', 'the cache is flushed at midnight', '--wing', 'proj'],
    { env: { ...process.env, PALACE_MODEL_DIR: '' } });
  const n = await client.waitFor('palace/changed', (p) => p.drawers === before + 1, { from, timeout: 10000 });
  assert.ok(!Number.isNaN(Date.parse(n.params.at)), n.params.at);
  assert.match(n.params.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
});

test('logs are window/logMessage with their level, and stderr stays empty', async (t) => {
  const { client } = await session(t, { wing: 'proj', hoverr: true });
  await mined(client);
  const mine = await client.waitFor('window/logMessage', (p) => /files mined/.test(p.message));
  assert.equal(mine.params.type, 3, 'a finished mine is info');
  const warn = await client.waitFor('window/logMessage', (p) => /hoverr/.test(p.message));
  assert.equal(warn.params.type, 2, 'an unknown option is a warning');
  assert.ok(!client.notes.some((n) => n.method === 'window/logMessage' && n.params.type === 1), 'no error');
  const exit = await client.shutdown();
  assert.deepEqual(exit, { code: 0, signal: null });
  assert.equal(client.stderr, '', 'nothing on stderr');
});
