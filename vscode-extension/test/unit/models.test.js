'use strict';
const test = require('node:test');
const assert = require('node:assert');
const m = require('../../out/models.js');

test('formatSource: file lines and conversations', () => {
  assert.strictEqual(m.formatSource({ id: '1', uri: 'file:///w/auth.go', line_start: 12, line_end: 30 }), 'auth.go:12-30');
  assert.strictEqual(m.formatSource({ id: '1', source: '/w/a.go', line_start: 3, line_end: 3 }), 'a.go:3');
  assert.strictEqual(m.formatSource({ id: '2', kind: 'conversation', time: '2026-01-02T10:00:00Z' }), 'conversation · 2026-01-02 10:00');
  assert.strictEqual(m.formatSource({ id: '3' }), 'conversation');
});

test('formatSource: the path relative to the workspace folder when the server sends relPath', () => {
  assert.strictEqual(m.formatSource({ id: '1', uri: 'file:///w/core/store/search.go', relPath: 'core/store/search.go', line_start: 31, line_end: 46 }),
    'core/store/search.go:31-46');
});

test('rowLabel: the room only where it says something', () => {
  const h = { id: 'd', uri: 'file:///w/core/store/search.go', relPath: 'core/store/search.go', line_start: 31, line_end: 46, room: 'core' };
  assert.strictEqual(m.rowLabel({ ...h, roomRedundant: true }), 'core/store/search.go:31-46');
  assert.strictEqual(m.rowLabel({ ...h, room: 'storage', roomRedundant: false }), 'core/store/search.go:31-46 · storage');
  assert.strictEqual(m.rowLabel({ id: 'n', kind: 'note', room: 'decisions', roomRedundant: false, time: '2026-01-02T10:00:00Z' }), 'note · 2026-01-02 10:00 · decisions');
  // A catch-all room (where a flat repository puts everything) says nothing.
  assert.strictEqual(m.rowLabel({ ...h, room: 'general', roomRedundant: false }), 'core/store/search.go:31-46');
});

test('cutSegments: a long snippet cut around its first match, the cuts marked', () => {
  const long = 'alpha '.repeat(40) + '**legacyArgs** ' + 'omega '.repeat(40);
  const segs = m.cutSegments(long, 60);
  const { text, highlights } = m.segmentsText(segs);
  assert.ok(text.length <= 62, text);
  assert.ok(text.startsWith('…') && text.endsWith('…'), text);
  assert.deepStrictEqual(highlights.map(([a, b]) => text.slice(a, b)), ['legacyArgs']);
  // A short one is kept whole; one without a match keeps its start.
  assert.deepStrictEqual(m.cutSegments('func **x**()', 60), [{ text: 'func ', match: false }, { text: 'x', match: true }, { text: '()', match: false }]);
  assert.ok(m.segmentsText(m.cutSegments('word '.repeat(40), 30)).text.startsWith('word word'));
});

test('plainMarkdown and plural: no backticks in plain-text messages, no "1 results"', () => {
  assert.strictEqual(m.plainMarkdown('mine this folder first (`palace mine DIR`); **now**'), 'mine this folder first (“palace mine DIR”); now');
  assert.strictEqual(m.plural(1, 'result'), '1 result');
  assert.strictEqual(m.plural(2, 'result'), '2 results');
  assert.strictEqual(m.plural(0, 'wing'), '0 wings');
});

test('hitToItem: the why first, the place beside it, the snippet without markers, why in tooltip', () => {
  const it = m.hitToItem({ id: 'd1', room: 'storage', roomRedundant: false, uri: 'file:///w/c.go', relPath: 'c.go', line_start: 1, line_end: 9,
    range: { start: { line: 0, character: 0 }, end: { line: 8, character: 0 } }, snippet: 'func **computeChecksum**(blob)', why: 'mentions computeChecksum (at cursor)' });
  assert.strictEqual(it.label, 'mentions computeChecksum (at cursor)');
  assert.strictEqual(it.description, 'c.go:1-9 · storage');
  assert.strictEqual(m.segmentsText(it.snippet).text, 'func computeChecksum(blob)');
  // Without a why, the place is the first line.
  assert.strictEqual(m.hitToItem({ id: 'n', relPath: 'c.go', uri: 'file:///w/c.go', line_start: 1, line_end: 2, snippet: 'x' }).label, 'c.go:1-2');
  assert.match(it.tooltip, /why: mentions computeChecksum/);
  assert.ok(!it.tooltip.includes('**'), it.tooltip);
  assert.strictEqual(it.opensSource, true);
  assert.strictEqual(m.hitToItem({ id: 'x', content: 'a' }).opensSource, false);

});

test('markSegments: matches as their own runs, never the raw markers', () => {
  assert.deepStrictEqual(m.markSegments('func **computeChecksum**(blob  []byte) **x**'), [
    { text: 'func ', match: false }, { text: 'computeChecksum', match: true }, { text: '(blob []byte) ', match: false }, { text: 'x', match: true }]);
  assert.deepStrictEqual(m.markSegments('**a**'), [{ text: 'a', match: true }]);
  // An unpaired marker is dropped and nothing is taken for a match.
  assert.deepStrictEqual(m.markSegments('a ** b'), [{ text: 'a  b', match: false }]);
  assert.deepStrictEqual(m.markSegments(undefined), []);
});

test('citationTitle and drawerDocPath: drawer tabs are named by citation, not id', () => {
  const h = { id: 'a1b2c3', citation: 'core/store/search.go:31-46' };
  assert.strictEqual(m.citationTitle(h), 'core/store/search.go:31-46');
  assert.strictEqual(m.drawerDocPath(h), '/core/store/search.go:31-46');
  assert.strictEqual(m.drawerDocPath({ id: 'x', citation: '/home/u/notes/a.md:1-3' }), '/home/u/notes/a.md:1-3');
  assert.strictEqual(m.drawerDocPath({ id: 'x', citation: '../../etc/passwd' }), '/etc/passwd');
  assert.strictEqual(m.citationTitle({ id: 'x', relPath: 'NOTES.md', line_start: 3, line_end: 3 }), 'NOTES.md:3');
  assert.strictEqual(m.citationTitle({ id: 'only-id' }), 'only-id');
  assert.strictEqual(m.drawerDocPath({ id: 'only-id' }), '/only-id');
});

test('escapeHtml and searchHtml: escaped, strict CSP with nonce, a submit button, keyboard rows', () => {
  assert.strictEqual(m.escapeHtml('<img src=x onerror="a">&\''), '&lt;img src=x onerror=&quot;a&quot;&gt;&amp;&#39;');
  const nonce = m.makeNonce();
  assert.match(nonce, /^[A-Za-z0-9]{32}$/);
  const html = m.searchHtml(nonce, 'vscode-webview://abc', '"><script>alert(1)</script>');
  assert.match(html, new RegExp(`default-src 'none'; style-src vscode-webview://abc 'nonce-${nonce}'; script-src 'nonce-${nonce}';`));
  assert.ok(!html.includes('<script>alert(1)'));
  const scripts = html.match(/<script[^>]*>/g);
  assert.deepStrictEqual(scripts, [`<script nonce="${nonce}">`]);
  assert.ok(!/innerHTML/.test(html), 'results are inserted as text');
  // A form with several text fields submits on Enter only when it has a submit button.
  assert.match(html, /<form id="f">[\s\S]*<button id="go" type="submit">Search<\/button><\/form>/);
  assert.match(html, /li\.tabIndex = 0/);
});

test('statusHtml: a readable page, escaped, no script, the notice\'s commands as code, not backticks', () => {
  const nonce = m.makeNonce();
  const html = m.statusHtml({
    drawers: 12, sources: 3, deleted_drawers: 1, db_bytes: 2097152, database: '/h/palace.db', schema_version: 10,
    rooms: [{ wing: 'fixture', room: 'general', drawers: 9 }, { wing: 'fixture', room: 'decisions', drawers: 3 }, { wing: '<x>', room: 'r', drawers: 1 }],
    embedding: { backend: 'none', reason: 'no model: run `palace model pull`' },
    notice: 'Search is lexical only:\nrun `palace model pull`.',
    server: { version: '0.9', mine_on_save: true, folders: [{ path: '/w/fixture', wing: 'fixture', state: 'idle', mines: 1, last: { drawers_added: 9 } }] },
  }, nonce);
  assert.match(html, /<h1>Palace: 12 drawers<\/h1>/);
  assert.match(html, /<tr class="wing"><th>fixture<\/th><td class="n">12<\/td><\/tr>/);
  assert.match(html, /<td class="room">decisions<\/td><td class="n">3<\/td>/);
  assert.match(html, /&lt;x&gt;/);
  assert.match(html, /<code>\/w\/fixture<\/code> → wing <b>fixture<\/b>: idle, 1 mines, last mine added 9 drawers/);
  assert.match(html, /run <code>palace model pull<\/code>\./);
  assert.ok(!html.includes('`'), 'no raw backticks');
  assert.ok(!/<script/.test(html) && !html.includes('{"'), 'no script, no raw JSON');
  assert.match(html, new RegExp(`default-src 'none'; style-src 'nonce-${nonce}';`));
});

test('withCsp: keeps a strict policy the page has, adds one to a page without', () => {
  const strict = `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-N'; script-src 'nonce-N'"></head><body></body></html>`;
  assert.strictEqual(m.withCsp(strict, 'N'), strict);
  const bare = '<!doctype html><html><head><title>t</title></head><body><script nonce="N">1</script></body></html>';
  const out = m.withCsp(bare, 'N');
  assert.match(out, /<head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'nonce-N'; script-src 'nonce-N';"><title>/);
  const loose = `<html><head><meta http-equiv="Content-Security-Policy" content="default-src *"></head></html>`;
  assert.ok(!m.withCsp(loose, 'N').includes('default-src *'));
});

// The drawer count comes from palace/status's top-level `drawers`
// (extension.test.js checks the bar against the real server's answer).
test('statusText', () => {
  assert.strictEqual(m.statusText({ state: 'running', drawers: 42 }), '$(database) Palace: 42 drawers');
  assert.strictEqual(m.statusText({ state: 'running', mining: { kind: 'report', percentage: 41.6 } }), '$(sync~spin) Palace: mining 42%');
  assert.strictEqual(m.statusText({ state: 'running', mining: { kind: 'begin', title: 'Palace: mining fixture' } }), '$(sync~spin) Palace: mining');
  assert.strictEqual(m.statusText({ state: 'missing' }), '$(warning) Palace: no server');
  assert.strictEqual(m.statusText({ state: 'stopped', drawers: 3 }), '$(debug-disconnect) Palace: stopped');
});

test('debounce: only the last call within the window runs', async () => {
  const calls = [];
  const f = m.debounce((x) => calls.push(x), 30);
  f(1); f(2); f(3);
  await new Promise((r) => setTimeout(r, 60));
  assert.deepStrictEqual(calls, [3]);
  f(4); f.cancel();
  await new Promise((r) => setTimeout(r, 50));
  assert.deepStrictEqual(calls, [3]);
});

test('drawerText holds metadata and the verbatim content', () => {
  const t = m.drawerText({ id: 'd9', wing: 'w', room: 'r', content: '<b>raw</b>', line_start: 2, line_end: 4 });
  assert.match(t, /# Drawer d9/); assert.match(t, /- wing: w/); assert.match(t, /- lines: 2-4/); assert.match(t, /<b>raw<\/b>/);
});

test('scopeText and resultsMessage: the scope a search ran in is said, an empty answer under one says to clear it', () => {
  assert.strictEqual(m.scopeText('cobra', 'doc'), 'cobra/doc');
  assert.strictEqual(m.scopeText('cobra', ''), 'cobra');
  assert.strictEqual(m.scopeText('', 'doc'), 'room doc');
  assert.strictEqual(m.scopeText(' ', undefined), '');
  assert.strictEqual(m.resultsMessage('quokkaZephyr', 0, 'cobra', 'doc'), 'No results for “quokkaZephyr” in cobra/doc: clear the scope to search everywhere.');
  assert.strictEqual(m.resultsMessage('quokkaZephyr', 0), 'No results for “quokkaZephyr”.');
  assert.strictEqual(m.resultsMessage('x', 1, 'cobra'), '1 result in cobra');
  assert.strictEqual(m.resultsMessage('x', 3), '3 results');
});

test('roomListing: a map click lists the room\'s drawers (no search for its name) and says how many there are', () => {
  const room = { name: 'doc', drawers: 7, top: [{ id: 'd1', kind: 'file', citation: 'doc/gen.go:1-20', line: 'package doc' }, { id: 'd2', kind: 'note', citation: 'note 2026-01-02', line: '' }] };
  const l = m.roomListing('cobra', room);
  assert.deepStrictEqual(l.hits.map((h) => [h.id, h.wing, h.room, h.citation]), [['d1', 'cobra', 'doc', 'doc/gen.go:1-20'], ['d2', 'cobra', 'doc', 'note 2026-01-02']]);
  assert.deepStrictEqual(l.items.map((i) => [i.id, i.label, i.description]), [['d1', 'doc/gen.go:1-20', 'package doc'], ['d2', 'note 2026-01-02', '']]);
  assert.strictEqual(l.message, '7 drawers in cobra/doc: the first 2 listed; search to find the others');
  assert.strictEqual(m.roomListing('cobra', { name: 'doc', drawers: 1, top: [room.top[0]] }).message, '1 drawer in cobra/doc');
});

test('searchHtml: the scope shows over the results with a one-click clear', () => {
  const html = m.searchHtml(m.makeNonce(), 'vscode-webview://abc', 'cobra');
  assert.match(html, /<div id="scope" class="scope" hidden><span id="scopeText"><\/span> <button id="clear" type="button"[^>]*aria-label="clear the scope">×<\/button><\/div>/);
  // Filling the form (a map click) and typing in wing or room redraw it; clear empties both and searches again.
  assert.match(html, /\$\('room'\)\.value = m\.room \|\| ''; scope\(\);/);
  assert.match(html, /\$\('wing'\)\.value = ''; \$\('room'\)\.value = ''; scope\(\);\s*if \(\$\('q'\)\.value\.trim\(\)\) \$\('f'\)\.requestSubmit\(\)/);
  assert.match(html, /\$\('msg'\)\.textContent = m\.error \? m\.error : m\.message;/);
  // The scope's display:flex must not override its hidden attribute.
  assert.match(html, /\.scope\[hidden\]\{display:none\}/);
});

test('roomListing: a room of files with parts and rest, more drawers than listed: each row is the citation (relative to the wing\'s root) with the first line beside it', () => {
  // palace/map's room as the server sends it since rooms have parts:
  // citations relative to the wing's root, parts biggest first, rest the
  // file drawers of the parts left out, top at most 5 of the drawers.
  const room = {
    name: 'general', drawers: 811, kinds: { file: 811 }, languages: { go: 790, markdown: 21 },
    parts: [{ name: 'doc/', drawers: 120, files: 9, language: 'go' }, { name: 'command.go', drawers: 88, files: 1, language: 'go' }],
    rest: 403,
    top: [
      { id: 'a1', kind: 'file', citation: 'command.go:24-40', line: '// Command is just   that, a command for your application.' },
      { id: 'a2', kind: 'file', citation: 'doc/man_docs.go:1-30', line: 'package doc' },
      { id: 'a3', kind: 'file', citation: 'args.go:24-40', line: 'func legacyArgs(cmd *Command, args []string) error {' },
      { id: 'a4', kind: 'file', citation: 'README.md:1-12', line: '' },
      { id: 'a5', kind: 'file', citation: 'cobra.go:50-71', line: 'func OnInitialize(y ...func()) {' },
    ],
  };
  const l = m.roomListing('cobra', room);
  assert.deepStrictEqual(l.items.map((i) => [i.label, i.description]), [
    ['command.go:24-40', '// Command is just that, a command for your application.'],
    ['doc/man_docs.go:1-30', 'package doc'],
    ['args.go:24-40', 'func legacyArgs(cmd *Command, args []string) error {'],
    ['README.md:1-12', ''],
    ['cobra.go:50-71', 'func OnInitialize(y ...func()) {'],
  ]);
  // No second line: the first line is beside the citation, not under it; no absolute path anywhere.
  assert.ok(l.items.every((i) => i.snippet.length === 0), JSON.stringify(l.items));
  assert.ok(l.items.every((i) => !i.label.startsWith('/') && !i.tooltip.includes('/home/')), JSON.stringify(l.items));
  assert.strictEqual(l.items[2].tooltip, 'args.go:24-40\ncobra/general\nfunc legacyArgs(cmd *Command, args []string) error {');
  assert.deepStrictEqual(l.hits.map((h) => [h.id, h.wing, h.room, h.citation]).slice(0, 2), [['a1', 'cobra', 'general', 'command.go:24-40'], ['a2', 'cobra', 'general', 'doc/man_docs.go:1-30']]);
  // The count is the room's, not the parts' or the listing's.
  assert.strictEqual(l.message, '811 drawers in cobra/general: the first 5 listed; search to find the others');
});
