// Pure view models: no `vscode` import, so they are unit-testable directly.

export interface LspRange { start: { line: number; character: number }; end: { line: number; character: number } }

export interface Hit {
  id: string;
  wing?: string;
  room?: string;
  kind?: string;
  source?: string;
  line_start?: number;
  line_end?: number;
  content?: string;
  citation?: string;
  time?: string;
  score?: number;
  snippet?: string;
  why?: string;
  uri?: string;
  range?: LspRange;
}

export function escapeHtml(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;');
}

export function makeNonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 32; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
  return s;
}

/** Removes the **bold** match markers and collapses whitespace. */
export function plainSnippet(s: string | undefined, max = 120): string {
  const t = String(s ?? '').replace(/\*\*/g, '').replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

function baseName(p: string): string {
  const clean = p.replace(/^file:\/\//, '');
  const i = clean.lastIndexOf('/');
  return i >= 0 ? clean.slice(i + 1) : clean;
}

export function shortTime(t: string | undefined): string {
  if (!t) return '';
  const d = new Date(t);
  if (isNaN(d.getTime())) return t;
  return d.toISOString().slice(0, 16).replace('T', ' ');
}

/** "auth.go:12-30" for a mined file, else "conversation · 2026-01-02 10:00" (or the source). */
export function formatSource(h: Hit): string {
  if (h.uri || (h.source && h.line_start)) {
    const name = baseName(h.uri || h.source || '');
    const ls = h.line_start, le = h.line_end;
    if (ls) return le && le !== ls ? `${name}:${ls}-${le}` : `${name}:${ls}`;
    return name;
  }
  const what = h.kind && h.kind !== 'file' ? h.kind : (h.source ? baseName(h.source) : 'conversation');
  const when = shortTime(h.time);
  return when ? `${what} · ${when}` : what;
}

export interface ItemModel { id: string; label: string; description: string; tooltip: string; opensSource: boolean }

export function hitToItem(h: Hit): ItemModel {
  const room = h.room || h.wing || 'drawer';
  return {
    id: h.id,
    label: `${room} · ${formatSource(h)}`,
    description: plainSnippet(h.snippet || h.content, 80),
    tooltip: [h.citation || formatSource(h), h.why ? `why: ${h.why}` : '', plainSnippet(h.snippet || h.content, 400)]
      .filter(Boolean).join('\n'),
    opensSource: !!(h.uri && h.range),
  };
}

/** Text of the drawer detail virtual document. */
export function drawerText(d: Hit & Record<string, unknown>): string {
  const meta: string[] = [`# Drawer ${d.id}`, ''];
  for (const k of ['wing', 'room', 'kind', 'source', 'citation', 'time']) {
    const v = (d as Record<string, unknown>)[k];
    if (v !== undefined && v !== '') meta.push(`- ${k}: ${String(v)}`);
  }
  if (d.line_start) meta.push(`- lines: ${d.line_start}-${d.line_end ?? d.line_start}`);
  return meta.join('\n') + '\n\n---\n\n' + String(d.content ?? '') + '\n';
}

export function debounce<A extends unknown[]>(fn: (...a: A) => void, ms: number): ((...a: A) => void) & { cancel(): void } {
  let t: ReturnType<typeof setTimeout> | undefined;
  const f = ((...a: A) => {
    if (t) clearTimeout(t);
    t = setTimeout(() => { t = undefined; fn(...a); }, ms);
  }) as ((...a: A) => void) & { cancel(): void };
  f.cancel = () => { if (t) clearTimeout(t); t = undefined; };
  return f;
}

export interface StatusModel { drawers?: number; mining?: { title?: string; message?: string; percentage?: number }; state: 'starting' | 'running' | 'stopped' | 'missing' }

export function statusText(s: StatusModel): string {
  if (s.state === 'missing') return '$(warning) Palace: no server';
  if (s.state === 'stopped') return '$(debug-disconnect) Palace: stopped';
  if (s.mining) {
    const pct = typeof s.mining.percentage === 'number' ? ` ${Math.round(s.mining.percentage)}%` : '';
    return `$(sync~spin) Palace: mining${pct}`;
  }
  if (s.state === 'starting') return '$(sync~spin) Palace';
  return `$(database) Palace: ${s.drawers ?? '?'} drawers`;
}

/** HTML of the Search webview: escaped, strict CSP, scripts only by nonce. */
export function searchHtml(nonce: string, cspSource: string, wing = ''): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${escapeHtml(cspSource)} 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">
body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:4px 8px}
input{width:100%;box-sizing:border-box;margin:2px 0;background:var(--vscode-input-background);color:var(--vscode-input-foreground);border:1px solid var(--vscode-input-border,transparent);padding:3px}
.row{display:flex;gap:4px}.row input{flex:1}
ul{list-style:none;padding:0;margin:6px 0}
li{padding:4px 2px;border-bottom:1px solid var(--vscode-panel-border);cursor:pointer}
li:hover{background:var(--vscode-list-hoverBackground)}
.src{opacity:.8;font-size:.9em}.why{opacity:.7;font-size:.85em;font-style:italic}
.msg{opacity:.8}
</style></head><body>
<form id="f"><input id="q" placeholder="Search Palace" aria-label="query">
<div class="row"><input id="wing" placeholder="wing" value="${escapeHtml(wing)}" aria-label="wing"><input id="room" placeholder="room" aria-label="room"></div></form>
<div id="msg" class="msg"></div><ul id="results"></ul>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
const $ = (id) => document.getElementById(id);
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  vscode.postMessage({type:'search', query:$('q').value, wing:$('wing').value, room:$('room').value});
});
window.addEventListener('message', (e) => {
  const m = e.data;
  if (m.type === 'results') {
    const ul = $('results'); ul.textContent = '';
    $('msg').textContent = m.error ? m.error : (m.items.length + ' results' + (m.notice ? ' — ' + m.notice : ''));
    for (const it of m.items) {
      const li = document.createElement('li');
      const a = document.createElement('div'); a.className='src'; a.textContent = it.label;
      const b = document.createElement('div'); b.textContent = it.description;
      li.append(a, b);
      if (it.why) { const c = document.createElement('div'); c.className='why'; c.textContent = it.why; li.append(c); }
      li.addEventListener('click', () => vscode.postMessage({type:'open', id: it.id}));
      ul.append(li);
    }
  }
});
</script></body></html>`;
}
