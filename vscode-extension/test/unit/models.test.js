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

test('hitToItem: label, snippet without bold, why in tooltip', () => {
  const it = m.hitToItem({ id: 'd1', room: 'storage', uri: 'file:///w/c.go', line_start: 1, line_end: 9,
    range: { start: { line: 0, character: 0 }, end: { line: 8, character: 0 } }, snippet: 'func **computeChecksum**(blob)', why: 'mentions computeChecksum (at cursor)' });
  assert.strictEqual(it.label, 'storage · c.go:1-9');
  assert.strictEqual(it.description, 'func computeChecksum(blob)');
  assert.match(it.tooltip, /why: mentions computeChecksum/);
  assert.strictEqual(it.opensSource, true);
  assert.strictEqual(m.hitToItem({ id: 'x', content: 'a' }).opensSource, false);
});

test('escapeHtml and searchHtml: escaped, strict CSP with nonce', () => {
  assert.strictEqual(m.escapeHtml('<img src=x onerror="a">&\''), '&lt;img src=x onerror=&quot;a&quot;&gt;&amp;&#39;');
  const nonce = m.makeNonce();
  assert.match(nonce, /^[A-Za-z0-9]{32}$/);
  const html = m.searchHtml(nonce, 'vscode-webview://abc', '"><script>alert(1)</script>');
  assert.match(html, new RegExp(`default-src 'none'; style-src vscode-webview://abc 'nonce-${nonce}'; script-src 'nonce-${nonce}';`));
  assert.ok(!html.includes('<script>alert(1)'));
  const scripts = html.match(/<script[^>]*>/g);
  assert.deepStrictEqual(scripts, [`<script nonce="${nonce}">`]);
  assert.ok(!/innerHTML/.test(html), 'results are inserted as text');
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
