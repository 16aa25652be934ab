// An entity's knowledge graph: the entities around it (one ring per hop)
// joined by their facts, and every fact's validity interval on a timeline.
// Current facts are solid green, ended ones grey and dashed, future ones
// outlined. A click on an entity picks out its facts, or, in a VS Code
// webview, asks the extension to open that entity.
"use strict";
(function () {
  const vscode = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : null;
  const data = PALACE;
  const app = document.getElementById("app");
  app.textContent = "";
  const now = Date.now();

  const plural = (n, one, many) => n + " " + (n === 1 ? one : many);
  const day = (t) => (t ? t.slice(0, 10) : "");
  // An end is excluded: a fact ending at a midnight held through the day
  // before, which is the day to show.
  function lastDay(t) {
    const d = new Date(t);
    if (d.getUTCHours() || d.getUTCMinutes() || d.getUTCSeconds()) return day(t);
    return new Date(d.getTime() - 86400000).toISOString().slice(0, 10);
  }
  function state(f) {
    if (f.current) return "current";
    return f.valid_from && Date.parse(f.valid_from) > now ? "future" : "ended";
  }
  function interval(f) {
    if (!f.valid_to) return f.valid_from ? "since " + day(f.valid_from) : "since always";
    return (f.valid_from ? day(f.valid_from) : "always") + " until " + lastDay(f.valid_to);
  }
  const sentence = (f) => f.subject + " " + f.predicate + " " + f.object;

  const counts = { current: 0, ended: 0, future: 0 };
  for (const f of data.facts) counts[state(f)]++;
  document.getElementById("summary").textContent = plural(data.nodes.length - 1, "entity", "entities") + " around " + data.entity.name + ", " +
    plural(data.facts.length, "fact", "facts") + " (" + counts.current + " current, " + counts.ended + " ended, " + counts.future + " future)" +
    (data.as_of ? ", as of " + day(data.as_of) : "") + (data.truncated ? "; the neighbourhood was cut" : "");

  // The neighbourhood: the entity in the middle, each hop on its own ring.
  const GW = 1000, GH = 460, cx = GW / 2, cy = GH / 2;
  const graph = el("svg", { viewBox: "0 0 " + GW + " " + GH, role: "img", "aria-label": "Entities around " + data.entity.name }, app);
  const pos = {};
  const rings = {};
  for (const n of data.nodes) (rings[n.hops] = rings[n.hops] || []).push(n);
  for (const hops in rings) {
    const ring = rings[hops], rad = hops * 95;
    ring.forEach((n, i) => {
      const a = (2 * Math.PI * i) / ring.length - Math.PI / 2 + hops * 0.3;
      pos[n.id] = { x: cx + rad * 2 * Math.cos(a), y: cy + rad * Math.sin(a) };
    });
  }
  // Fit the picture to the rings drawn: one or two hops seldom fill it.
  const ys = Object.values(pos).map((p) => p.y);
  const top = Math.min(...ys) - 30, bottom = Math.max(...ys) + 20;
  graph.setAttribute("viewBox", "0 " + top + " " + GW + " " + (bottom - top));
  const edges = [];
  for (const f of data.facts) {
    const a = pos[f.subject_id], b = pos[f.object_id];
    if (!a || !b) continue;
    const line = el("line", { class: "edge " + state(f), x1: a.x, y1: a.y, x2: b.x, y2: b.y }, graph);
    el("title", {}, line, sentence(f) + " (" + interval(f) + ")");
    edges.push({ f: f, line: line });
    if (data.facts.length <= 40) el("text", { class: "edge-label", x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - 3, "text-anchor": "middle" }, graph, f.predicate);
  }
  const nodes = [];
  for (const n of data.nodes) {
    const p = pos[n.id];
    const g = el("g", { class: "node" + (n.hops === 0 ? " root" : ""), tabindex: 0, role: "button" }, graph);
    el("circle", { cx: p.x, cy: p.y, r: n.hops === 0 ? 9 : 6 }, g);
    el("title", {}, g, n.name + (n.type && n.type !== "unknown" ? " (" + n.type + ")" : ""));
    el("text", { x: p.x, y: p.y - 12, "text-anchor": "middle" }, g, n.name);
    g.addEventListener("click", () => pick(n));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(n); } });
    nodes.push({ n: n, g: g });
  }

  // The timeline: one row per fact, its interval as a bar on a shared
  // axis that runs to a little past today. A fact true since always starts
  // at the axis's left edge; one still true runs to its right edge.
  html("h2", app, "Timeline");
  const starts = [], ends = [now];
  for (const f of data.facts) {
    if (f.valid_from) starts.push(Date.parse(f.valid_from));
    if (f.valid_to) ends.push(Date.parse(f.valid_to));
  }
  let t0 = Math.min(...starts.concat(ends)), t1 = Math.max(...ends.concat(starts));
  const pad = Math.max((t1 - t0) * 0.05, 86400000 * 30);
  t0 -= pad; t1 += pad;
  const TW = 1000, LABEL = 380, ROW = 20, TOP = 24;
  const TH = TOP + ROW * Math.max(data.facts.length, 1) + 8;
  const x = (t) => LABEL + ((t - t0) / (t1 - t0)) * (TW - LABEL - 10);
  const tl = el("svg", { viewBox: "0 0 " + TW + " " + TH, role: "img", "aria-label": "Facts on a timeline" }, app);
  const axis = el("g", { class: "axis" }, tl);
  const y0 = new Date(t0).getUTCFullYear(), y1 = new Date(t1).getUTCFullYear();
  const step = Math.max(1, Math.ceil((y1 - y0 + 1) / 10));
  for (let y = y0 + 1; y <= y1; y += step) {
    const tx = x(Date.UTC(y, 0, 1));
    if (tx < LABEL) continue;
    el("line", { x1: tx, y1: 14, x2: tx, y2: TH }, axis);
    el("text", { x: tx + 2, y: 11 }, axis, String(y));
  }
  el("line", { class: "now", x1: x(now), y1: 14, x2: x(now), y2: TH }, tl);
  el("text", { class: "now-label", x: x(now) + 2, y: 22 }, tl, "today");
  const rows = [];
  data.facts.forEach((f, i) => {
    const y = TOP + i * ROW;
    const g = el("g", { class: "row" }, tl);
    const max = 58, s = sentence(f);
    el("text", { x: 0, y: y + 13 }, g, s.length > max ? s.slice(0, max - 1) + "…" : s);
    const a = f.valid_from ? x(Date.parse(f.valid_from)) : LABEL;
    const b = f.valid_to ? x(Date.parse(f.valid_to)) : TW - 10;
    const bar = el("rect", { class: "span " + state(f), x: a, y: y + 4, width: Math.max(b - a, 2), height: ROW - 8, rx: 2 }, g);
    el("title", {}, bar, s + ": " + interval(f) + " (" + state(f) + ")");
    rows.push({ f: f, g: g });
  });
  if (!data.facts.length) html("p", app, data.as_of ? "No fact about it is true on " + day(data.as_of) + "." : "No fact joins it to another entity.", "muted");

  html("h2", app, "Facts");
  const ul = html("ul", app, undefined, "list");
  for (const f of data.facts) {
    const li = html("li", ul);
    li.appendChild(document.createTextNode(sentence(f) + " "));
    html("span", li, interval(f) + ", " + state(f), "muted");
  }

  let picked = null;
  function pick(n) {
    if (vscode) { vscode.postMessage({ type: "openEntity", name: n.name }); return; }
    picked = picked === n.id ? null : n.id;
    const touches = (f) => !picked || f.subject_id === picked || f.object_id === picked;
    for (const r of rows) r.g.classList.toggle("dim", !touches(r.f));
    for (const e of edges) e.line.style.opacity = touches(e.f) ? "" : "0.2";
  }
})();
