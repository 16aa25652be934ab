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
  /** The source relative to its workspace folder (or as stored outside any). */
  relPath?: string;
  /** True when the room only repeats relPath's first folder. */
  roomRedundant?: boolean;
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

export interface Segment { text: string; match: boolean }

/**
 * Splits a snippet at its `**` match markers into plain and matched runs
 * (whitespace collapsed), so a view can render the matches as text nodes:
 * never as HTML, never with the raw markers. An unpaired marker is dropped.
 */
export function markSegments(s: string | undefined): Segment[] {
  const parts = String(s ?? '').replace(/\s+/g, ' ').trim().split('**');
  const out: Segment[] = [];
  parts.forEach((text, i) => {
    // An odd count of parts means every marker is paired.
    const match = i % 2 === 1 && parts.length % 2 === 1;
    if (!text) return;
    const last = out[out.length - 1];
    if (last && last.match === match) last.text += text;
    else out.push({ text, match });
  });
  return out;
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

function lines(h: Hit): string {
  const ls = h.line_start, le = h.line_end;
  if (!ls) return '';
  return le && le !== ls ? `:${ls}-${le}` : `:${ls}`;
}

/**
 * "core/auth.go:12-30" for a mined file (the path relative to its workspace
 * folder; the base name from a server that sends no relPath), else
 * "conversation · 2026-01-02 10:00" (or the source).
 */
export function formatSource(h: Hit): string {
  if (h.uri || (h.source && h.line_start)) {
    return (h.relPath || baseName(h.uri || h.source || '')) + lines(h);
  }
  const what = h.kind && h.kind !== 'file' ? h.kind : (h.relPath || (h.source ? baseName(h.source) : 'conversation'));
  const when = shortTime(h.time);
  return when ? `${what} · ${when}` : what;
}

/**
 * The rooms the miner files what no rule places (core/route's catch-all:
 * a flat repository puts nearly everything in "general"): naming one on a
 * row says nothing about the drawer.
 */
const CATCH_ALL_ROOMS = new Set(['general', 'conversations']);

/**
 * Where the drawer is from, then its room unless the room only repeats the
 * path's first folder or is a catch-all room.
 */
export function rowLabel(h: Hit): string {
  const room = h.roomRedundant || CATCH_ALL_ROOMS.has((h.room || '').toLowerCase()) ? '' : (h.room || '');
  return room ? `${formatSource(h)} · ${room}` : formatSource(h);
}

/**
 * The snippet's match segments cut to about max characters around its
 * first match, with "…" where text was cut: a row at the sidebar's
 * default width shows the match, not the snippet's first words.
 */
export function cutSegments(s: string | undefined, max = 90): Segment[] {
  const segs = markSegments(s);
  const total = segs.reduce((n, g) => n + g.text.length, 0);
  if (total <= max) return segs;
  let at = 0; let first = 0;
  for (const g of segs) { if (g.match) { first = at; break; } at += g.text.length; }
  // A sixth of the room before the match, the rest after it: a sidebar
  // at its default width shows about 35 characters of the line.
  let from = Math.max(0, first - Math.floor(max / 6));
  let to = Math.min(total, from + max);
  from = Math.max(0, to - max);
  // Cut between words where one ends near the cut, not inside one.
  const plain = segs.map((g) => g.text).join('');
  const sp = plain.indexOf(' ', from);
  if (from > 0 && sp >= 0 && sp < first && sp - from < 15) from = sp + 1;
  const ep = plain.lastIndexOf(' ', to);
  if (to < total && ep > first && to - ep < 15) to = ep;
  const out: Segment[] = [];
  at = 0;
  for (const g of segs) {
    const a = Math.max(from, at), b = Math.min(to, at + g.text.length);
    if (a < b) out.push({ text: g.text.slice(a - at, b - at), match: g.match });
    at += g.text.length;
  }
  if (from > 0 && out.length) out[0] = { ...out[0], text: '…' + out[0].text.trimStart() };
  if (to < total && out.length) out[out.length - 1] = { ...out[out.length - 1], text: out[out.length - 1].text.trimEnd() + '…' };
  return out;
}

/** The segments' text and where their matches are in it (a tree item label's highlights). */
export function segmentsText(segs: Segment[]): { text: string; highlights: [number, number][] } {
  let text = ''; const highlights: [number, number][] = [];
  for (const g of segs) {
    if (g.match) highlights.push([text.length, text.length + g.text.length]);
    text += g.text;
  }
  return { text, highlights };
}

/**
 * A row in two lines: label, the symbol or why first (else where the drawer
 * is from), with the place as its description; snippet, the second line,
 * cut around the match.
 */
export interface ItemModel { id: string; label: string; description: string; snippet: Segment[]; tooltip: string; opensSource: boolean }

export function hitToItem(h: Hit): ItemModel {
  const where = rowLabel(h);
  return {
    id: h.id,
    label: h.why || where,
    description: h.why ? where : '',
    snippet: cutSegments(h.snippet || h.content),
    tooltip: [h.citation || formatSource(h), h.wing && h.room ? `${h.wing}/${h.room}` : '', h.why ? `why: ${h.why}` : '',
      plainSnippet(h.snippet || h.content, 400)].filter(Boolean).join('\n'),
    opensSource: !!(h.uri && h.range),
  };
}

/**
 * A server message's markdown as plain text for places that show text
 * only (a tree view's message, notifications): `code` and **bold** lose
 * their marks, code in quotes, so no backtick is shown.
 */
export function plainMarkdown(s: string): string {
  return s.replace(/`([^`]+)`/g, '“$1”').replace(/\*\*([^*]+)\*\*/g, '$1');
}

/** "1 result", "2 results". */
export function plural(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "cobra/doc", "cobra", "room doc", or "" when the search is everywhere. */
export function scopeText(wing?: string, room?: string): string {
  const w = (wing || '').trim(), r = (room || '').trim();
  if (w && r) return `${w}/${r}`;
  return w || (r ? `room ${r}` : '');
}

/**
 * The Search view's line over its rows: the count, and the scope it was
 * searched in, so an empty answer under a scope says why ("No results for
 * “x” in cobra/doc: clear the scope to search everywhere.").
 */
export function resultsMessage(query: string, n: number, wing?: string, room?: string): string {
  const scope = scopeText(wing, room);
  const where = scope ? ` in ${scope}` : '';
  if (n) return `${plural(n, 'result')}${where}`;
  const what = query ? ` for “${query}”` : '';
  return scope ? `No results${what}${where}: clear the scope to search everywhere.` : `No results${what}.`;
}

/** A drawer palace/map lists under its room (ops.MapDrawer): its citation is relative to the wing's root. */
export interface MapDrawer { id: string; kind?: string; citation?: string; line?: string }
/** A part of a room of files: a folder (its name ends in "/") or a file, relative to the wing's root. */
export interface MapPart { name: string; drawers: number; files?: number; language?: string }
/** A room of palace/map's result, with the drawers it lists and the parts it is made of. */
export interface MapRoom { name: string; drawers: number; top?: MapDrawer[]; parts?: MapPart[]; rest?: number }

/**
 * A map click's listing of a room: its drawers as the map lists them (a
 * search needs words, and the room's name is not one its drawers say),
 * with the line over them saying how many there are and how many show.
 * Each row is the drawer's citation (relative to the wing's root, as the
 * server sends it) with its first line beside it.
 */
export function roomListing(wing: string, room: MapRoom): { hits: Hit[]; items: ItemModel[]; message: string } {
  const top = room.top ?? [];
  const hits: Hit[] = top.map((d) => ({ id: d.id, kind: d.kind, citation: d.citation, wing, room: room.name }));
  const items: ItemModel[] = top.map((d) => {
    const first = plainSnippet(d.line, 200);
    return {
      id: d.id, label: d.citation || d.id, description: first, snippet: [],
      tooltip: [d.citation || d.id, `${wing}/${room.name}`, first].filter(Boolean).join('\n'), opensSource: false,
    };
  });
  const more = room.drawers - top.length;
  const message = `${plural(room.drawers, 'drawer')} in ${wing}/${room.name}` +
    (more > 0 ? `: the first ${top.length} listed; search to find the others` : '');
  return { hits, items, message };
}

/**
 * The title of a drawer's tab: its citation ("core/store/search.go:31-46",
 * or the source of a note), never its id unless it has nothing else.
 */
export function citationTitle(h: Hit): string {
  const c = (h.citation || '').trim();
  if (c) return c;
  const src = h.relPath || h.source || '';
  return src ? src + lines(h) : h.id;
}

/**
 * The path of a drawer's virtual document: the citation as path segments,
 * so the editor names the tab by the citation's last segment and shows the
 * rest as its folder. The id travels in the query.
 */
export function drawerDocPath(h: Hit): string {
  const segs = citationTitle(h).split('/').filter((x) => x && x !== '.' && x !== '..');
  return '/' + (segs.length ? segs.join('/') : h.id);
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

/**
 * HTML of the Search webview: escaped, strict CSP, scripts only by nonce.
 * Enter in any field or the Search button submits; the results are a
 * listbox whose rows take focus (Tab, or the arrow keys from the query)
 * and open with Enter or Space. Matches are drawn as <mark> elements built
 * from text segments, never from HTML. The wing and room the search runs
 * in show as "in cobra/doc ×" over the results; × clears them and searches
 * again everywhere.
 */
export function searchHtml(nonce: string, cspSource: string, wing = ''): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${escapeHtml(cspSource)} 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">
body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:4px 8px}
input{width:100%;box-sizing:border-box;margin:2px 0;background:var(--vscode-input-background);color:var(--vscode-input-foreground);border:1px solid var(--vscode-input-border,transparent);padding:3px}
input:focus,li:focus,button:focus{outline:1px solid var(--vscode-focusBorder);outline-offset:-1px}
.row{display:flex;gap:4px}.row input{flex:1}
button{margin:4px 0;padding:3px 12px;border:none;background:var(--vscode-button-background);color:var(--vscode-button-foreground);cursor:pointer}
button:hover{background:var(--vscode-button-hoverBackground)}
ul{list-style:none;padding:0;margin:6px 0}
li{padding:4px 2px;border-bottom:1px solid var(--vscode-panel-border);cursor:pointer}
li:hover,li:focus{background:var(--vscode-list-hoverBackground)}
mark{background:var(--vscode-editor-findMatchHighlightBackground);color:inherit}
.head,.snip{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}.src{opacity:.75;font-size:.9em}.snip{opacity:.9;font-size:.9em}
.msg{opacity:.8}
.scope{display:flex;align-items:center;gap:4px;opacity:.9}.scope[hidden]{display:none}.scope button{margin:0;padding:0 6px}
</style></head><body>
<form id="f"><input id="q" placeholder="Search Palace" aria-label="query">
<div class="row"><input id="wing" placeholder="wing" value="${escapeHtml(wing)}" aria-label="wing"><input id="room" placeholder="room" aria-label="room"></div>
<button id="go" type="submit">Search</button></form>
<div id="scope" class="scope" hidden><span id="scopeText"></span> <button id="clear" type="button" title="Clear the scope: search everywhere" aria-label="clear the scope">×</button></div>
<div id="msg" class="msg" role="status"></div><ul id="results" role="listbox" aria-label="results"></ul>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
const $ = (id) => document.getElementById(id);
const ul = $('results');
const rows = () => Array.from(ul.children);
// The scope a search runs in, always on screen: a room a map click set
// stays set, and an empty answer must not look like an empty palace.
function scope() {
  const w = $('wing').value.trim(), r = $('room').value.trim();
  const s = w && r ? w + '/' + r : (w || (r ? 'room ' + r : ''));
  $('scope').hidden = !s; $('scopeText').textContent = s ? 'in ' + s : '';
}
$('wing').addEventListener('input', scope); $('room').addEventListener('input', scope);
$('clear').addEventListener('click', () => {
  $('wing').value = ''; $('room').value = ''; scope();
  if ($('q').value.trim()) $('f').requestSubmit(); else { ul.textContent = ''; $('msg').textContent = ''; }
});
scope();
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  $('msg').textContent = 'Searching…';
  vscode.postMessage({type:'search', query:$('q').value, wing:$('wing').value, room:$('room').value});
});
$('q').addEventListener('keydown', (e) => {
  if (e.key === 'ArrowDown' && ul.firstElementChild) { e.preventDefault(); ul.firstElementChild.focus(); }
});
ul.addEventListener('keydown', (e) => {
  const list = rows(); const i = list.indexOf(document.activeElement);
  if (i < 0) return;
  if (e.key === 'ArrowDown' && i + 1 < list.length) { e.preventDefault(); list[i + 1].focus(); }
  else if (e.key === 'ArrowUp') { e.preventDefault(); (i ? list[i - 1] : $('q')).focus(); }
  else if (e.key === 'Home') { e.preventDefault(); list[0].focus(); }
  else if (e.key === 'End') { e.preventDefault(); list[list.length - 1].focus(); }
  else if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); vscode.postMessage({type:'open', id: list[i].dataset.id}); }
});
window.addEventListener('message', (e) => {
  const m = e.data;
  if (m.type === 'fill') {
    $('q').value = m.query || ''; $('wing').value = m.wing || ''; $('room').value = m.room || ''; scope();
  } else if (m.type === 'results') {
    ul.textContent = '';
    $('msg').textContent = m.error ? m.error : m.message;
    for (const it of m.items) {
      const li = document.createElement('li');
      li.tabIndex = 0; li.setAttribute('role', 'option'); li.dataset.id = it.id;
      // First line: the why or the place, then the place; second: the snippet cut around the match.
      const a = document.createElement('div'); a.className = 'head';
      const t = document.createElement('span'); t.className = 'title'; t.textContent = it.label; a.append(t);
      if (it.description) { const d = document.createElement('span'); d.className = 'src'; d.textContent = ' ' + it.description; a.append(d); }
      const b = document.createElement('div'); b.className = 'snip';
      for (const s of it.snippet) {
        const n = document.createElement(s.match ? 'mark' : 'span'); n.textContent = s.text; b.append(n);
      }
      li.append(a, b);
      li.setAttribute('aria-label', a.textContent + ': ' + b.textContent);
      li.addEventListener('click', () => vscode.postMessage({type:'open', id: it.id}));
      ul.append(li);
    }
    if (m.focus && ul.firstElementChild) ul.firstElementChild.focus();
  }
});
vscode.postMessage({type:'ready'});
</script></body></html>`;
}

export interface FolderStatus { uri?: string; path?: string; wing?: string; state?: string; mines?: number; last?: Record<string, unknown> }

/** The parts of palace/status the status page shows. */
export interface PalaceStatus {
  home?: string; database?: string; schema_version?: number; db_bytes?: number;
  drawers?: number; deleted_drawers?: number; sources?: number;
  rooms?: { wing: string; room: string; drawers: number }[];
  embedding?: { backend?: string; model?: string; reason?: string; vectors?: number; pending?: number };
  notice?: string;
  server?: { version?: string; mine_on_save?: boolean; hover?: boolean; mines?: number; folders?: FolderStatus[] };
}

/** Escapes s and shows its `code` spans as <code> (the server's notices quote commands so). */
function inlineCode(s: string): string {
  return escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function megabytes(n: number | undefined): string {
  return typeof n === 'number' ? `${(n / 1048576).toFixed(1)} MB` : '?';
}

/**
 * The Status page (what Neovim's :PalaceStatus buffer shows): counts, the
 * rooms of each wing, the workspace folders and their mines, embeddings and
 * the lexical-only notice, as escaped HTML with no script.
 */
export function statusHtml(st: PalaceStatus, nonce: string): string {
  const e = escapeHtml;
  const wings = new Map<string, { room: string; drawers: number }[]>();
  for (const r of st.rooms ?? []) {
    if (!wings.has(r.wing)) wings.set(r.wing, []);
    wings.get(r.wing)!.push(r);
  }
  const wingRows = [...wings].map(([w, rooms]) => {
    const total = rooms.reduce((n, r) => n + r.drawers, 0);
    const list = rooms.map((r) => `<tr><td class="room">${e(r.room)}</td><td class="n">${r.drawers}</td></tr>`).join('');
    return `<tr class="wing"><th>${e(w)}</th><td class="n">${total}</td></tr>${list}`;
  }).join('');
  const folders = (st.server?.folders ?? []).map((f) => {
    const last = f.last ?? {};
    const lastText = last.error ? `last mine failed: ${e(last.error)}`
      : last.drawers_added !== undefined ? `last mine added ${e(last.drawers_added)} drawers` : '';
    return `<li><code>${e(f.path || f.uri)}</code> → wing <b>${e(f.wing)}</b>: ${e(f.state || 'idle')}` +
      `${f.mines !== undefined ? `, ${e(f.mines)} mines` : ''}${lastText ? `, ${lastText}` : ''}</li>`;
  }).join('');
  const emb = st.embedding ?? {};
  const embText = emb.backend && emb.backend !== 'none'
    ? `${e(emb.backend)}${emb.model ? ` (${e(emb.model)})` : ''}: ${e(emb.vectors ?? 0)} vectors, ${e(emb.pending ?? 0)} drawers waiting`
    : `none${emb.reason ? `: ${inlineCode(emb.reason)}` : ''}`;
  const notice = st.notice ? `<section class="notice"><h2>Notice</h2>${st.notice.split(/\n+/).map((l) => `<p>${inlineCode(l)}</p>`).join('')}</section>` : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}';">
<style nonce="${nonce}">
body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:8px 16px;max-width:60em}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.4em}
table{border-collapse:collapse}td,th{padding:1px 10px 1px 0;text-align:left}
.n{text-align:right;font-variant-numeric:tabular-nums}.room{padding-left:1.5em}
tr.wing th,tr.wing td{padding-top:6px;font-weight:bold}
.notice{border-left:3px solid var(--vscode-editorWarning-foreground);padding-left:8px}
.dim{opacity:.75}
</style></head><body>
<h1>Palace: ${e(st.drawers ?? '?')} drawers</h1>
<p class="dim">${e(st.sources ?? '?')} sources, ${e(st.deleted_drawers ?? 0)} deleted drawers; ${megabytes(st.db_bytes)} in <code>${e(st.database ?? '?')}</code> (schema v${e(st.schema_version ?? '?')})${st.server?.version ? `; server ${e(st.server.version)}` : ''}</p>
${notice}
<h2>Wings and rooms</h2>
${wingRows ? `<table>${wingRows}</table>` : '<p>The palace is empty.</p>'}
<h2>Workspace folders</h2>
${folders ? `<ul>${folders}</ul>` : '<p>No workspace folder.</p>'}
<p class="dim">Mine on save: ${st.server?.mine_on_save ? 'on' : 'off'}; hover: ${st.server?.hover ? 'on' : 'off'}.</p>
<h2>Embeddings</h2>
<p>${embText}</p>
</body></html>`;
}

/**
 * Makes sure a page from the server has the strict policy the webview
 * needs: its own CSP meta if it carries one with default-src 'none',
 * else ours (no network, inline script and style only by nonce).
 */
export function withCsp(html: string, nonce: string): string {
  const m = /<meta[^>]+http-equiv=["']?Content-Security-Policy["']?[^>]*>/i.exec(html);
  if (m && /default-src 'none'/.test(m[0])) return html;
  const meta = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';">`;
  const stripped = m ? html.replace(m[0], '') : html;
  return /<head[^>]*>/i.test(stripped) ? stripped.replace(/<head[^>]*>/i, (h) => h + meta) : meta + stripped;
}
