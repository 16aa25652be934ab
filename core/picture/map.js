// The palace map: wings as boxes, their rooms as tiles sized by drawers
// (a squarified treemap), a room of files cut into its parts (its folders,
// or the files of the folder holding most of it, so a flat repository's
// one big room still says what it holds); coloured by language (a palace
// mostly of files), by the kind most of their drawers are, or by the age
// of their newest drawer; tunnels as dashed links between wings; every
// room named in a list under the picture, however small its tile. A click
// on a room lists the drawers embedded in the page, or, in a VS Code
// webview, asks the extension to open the room.
"use strict";
(function () {
  const W = 1200, H = 700, HEAD = 18;
  const vscode = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : null;
  const data = PALACE;
  const app = document.getElementById("app");
  app.textContent = "";
  const KINDS = ["file", "conversation", "note", "diary"];
  // Colour by language when most drawers are files: by kind, a code
  // palace is one colour.
  let files = 0, all = 0;
  for (const w of data.wings) { files += (w.kinds || {}).file || 0; all += w.drawers; }
  let colourBy = files * 2 > all ? "language" : "kind";

  const day = (t) => (t || "").slice(0, 10);
  const plural = (n, w) => n + " " + w + (n === 1 ? "" : "s");
  function kindsText(k) {
    return Object.keys(k).sort().map((x) => x + " " + k[x]).join(", ");
  }
  function mainKind(k) {
    let best = "", n = -1;
    for (const x of Object.keys(k).sort()) if (k[x] > n) { best = x; n = k[x]; }
    return best;
  }
  const cssVar = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  function kindColour(k) { return cssVar("--" + (KINDS.includes(k) ? k : "other")); }

  // Languages get hues of their own, the common ones fixed so two maps
  // agree; the others spread by their name.
  const LANG_HUES = { go: 195, python: 50, typescript: 215, javascript: 40, rust: 20, c: 260, cpp: 280, java: 0, ruby: 350,
    markdown: 130, yaml: 300, json: 90, shell: 160, html: 10, css: 240 };
  const langs = {};
  for (const w of data.wings) for (const l in w.languages || {}) langs[l] = (langs[l] || 0) + w.languages[l];
  const langOrder = Object.keys(langs).sort((a, b) => langs[b] - langs[a] || (a < b ? -1 : 1));
  function langColour(l) {
    if (!l) return cssVar("--other");
    let h = LANG_HUES[l];
    if (h === undefined) { h = 0; for (const c of l) h = (h * 31 + c.charCodeAt(0)) % 360; }
    return "hsl(" + h + ", 55%, 55%)";
  }
  // A room's colour by language: its main language, else (a room of
  // conversations, notes or diaries) its kind's.
  function roomLangColour(r) {
    const l = mainKind(r.languages || {});
    return l ? langColour(l) : kindColour(mainKind(r.kinds));
  }

  // Ages run from the oldest room's newest drawer (pale) to the newest
  // (deep blue).
  const times = [];
  for (const w of data.wings) for (const r of w.rooms) times.push(Date.parse(r.newest));
  const tMin = Math.min(...times), tMax = Math.max(...times);
  function ageColour(t) {
    const f = tMax > tMin ? (Date.parse(t) - tMin) / (tMax - tMin) : 1;
    return "hsl(212, " + Math.round(25 + 55 * f) + "%, " + Math.round(82 - 42 * f) + "%)";
  }

  // squarify lays items (with .value) out in the rectangle, rows of
  // tiles whose worst aspect ratio stops improving (Bruls et al.).
  function squarify(items, x, y, w, h) {
    const out = [];
    const total = items.reduce((s, i) => s + i.value, 0);
    if (!total) return out;
    const scale = (w * h) / total;
    let rest = items.map((i) => ({ item: i, area: i.value * scale }));
    while (rest.length) {
      const side = Math.min(w, h);
      let row = [], best = Infinity;
      for (const t of rest) {
        const next = row.concat([t]);
        const s = next.reduce((a, b) => a + b.area, 0);
        const worst = Math.max(...next.map((n) => Math.max((side * side * n.area) / (s * s), (s * s) / (side * side * n.area))));
        if (worst > best) break;
        row = next; best = worst;
      }
      rest = rest.slice(row.length);
      const s = row.reduce((a, b) => a + b.area, 0);
      if (w >= h) {
        const cw = s / h; let cy = y;
        for (const t of row) { const ch = t.area / cw; out.push({ item: t.item, x: x, y: cy, w: cw, h: ch }); cy += ch; }
        x += cw; w -= cw;
      } else {
        const rh = s / w; let cx = x;
        for (const t of row) { const cw = t.area / rh; out.push({ item: t.item, x: cx, y: y, w: cw, h: rh }); cx += cw; }
        y += rh; h -= rh;
      }
    }
    return out;
  }

  const total = data.wings.reduce((s, w) => s + w.drawers, 0);
  const rooms = data.wings.reduce((s, w) => s + w.rooms.length, 0);
  document.getElementById("summary").textContent = data.wings.length
    ? plural(data.wings.length, "wing") + ", " + plural(rooms, "room") + ", " + plural(total, "drawer") + ", " + plural(data.tunnels.length, "tunnel")
    : "The palace holds no drawers yet: mine a folder or remember something, then draw the map again.";

  const bar = html("div", app, undefined, "bar");
  html("span", bar, "Colour by", "muted");
  const buttons = {};
  for (const mode of ["language", "kind", "age"]) {
    const b = html("button", bar, mode);
    b.setAttribute("aria-pressed", String(mode === colourBy));
    b.addEventListener("click", () => { colourBy = mode; paint(); });
    buttons[mode] = b;
  }
  const legend = html("span", bar, undefined, "bar");

  const svg = el("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "Treemap of wings and rooms" }, app);
  const tiles = [];
  const centres = {}, roomCentres = {};
  // Areas follow drawers, with a floor so a wing of a few drawers beside
  // one of thousands (or a room beside its big siblings) stays big enough
  // to see, read and click; the labels and tooltips give the true counts.
  const floored = (n, sum, share) => Math.max(n, sum * share);
  for (const wt of squarify(data.wings.map((w) => ({ value: floored(w.drawers, total, 0.02), w: w })), 0, 0, W, H)) {
    const w = wt.item.w;
    const g = el("g", { class: "wing" }, svg);
    centres[w.name] = { x: wt.x + wt.w / 2, y: wt.y + wt.h / 2 };
    const inner = { x: wt.x + 2, y: wt.y + HEAD, w: Math.max(wt.w - 4, 0), h: Math.max(wt.h - HEAD - 2, 0) };
    for (const rt of squarify(w.rooms.map((r) => ({ value: floored(r.drawers, w.drawers, 0.01), r: r })), inner.x, inner.y, inner.w, inner.h)) {
      const r = rt.item.r;
      const rect = el("rect", { class: "room", x: rt.x, y: rt.y, width: Math.max(rt.w, 0), height: Math.max(rt.h, 0), tabindex: 0, role: "button",
        "data-wing": w.name, "data-room": r.name }, g);
      el("title", {}, rect, w.name + " / " + r.name + ": " + plural(r.drawers, "drawer") + " (" + kindsText(r.kinds) + "), " + day(r.oldest) + " to " + day(r.newest));
      rect.addEventListener("click", () => openRoom(w, r, rect));
      rect.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); openRoom(w, r, rect); } });
      tiles.push({ rect: rect, room: r });
      roomCentres[w.name + "\u0000" + r.name] = { x: rt.x + rt.w / 2, y: rt.y + rt.h / 2 };
      const label = (text, x, y, width) => {
        const max = Math.floor(width / 6);
        if (max >= 2) el("text", { class: "room-label", x: x, y: y }, g, text.length > max ? text.slice(0, Math.max(max - 1, 1)) + "…" : text);
      };
      const parts = r.parts || [];
      if (parts.length > 1 && rt.w > 60 && rt.h > 50) {
        // The room's name on a line of its own, its parts tiled below.
        label(r.name + " · " + r.drawers, rt.x + 4, rt.y + 12, rt.w - 6);
        const items = parts.map((p) => ({ value: p.drawers, p: p }));
        if (r.rest) items.push({ value: r.rest, p: { name: "+" + r.rest + " more", drawers: r.rest, language: "", rest: true } });
        for (const pt of squarify(items, rt.x + 2, rt.y + 16, Math.max(rt.w - 4, 0), Math.max(rt.h - 18, 0))) {
          const p = pt.item.p;
          const pr = el("rect", { class: "part", x: pt.x, y: pt.y, width: Math.max(pt.w, 0), height: Math.max(pt.h, 0), "data-part": p.name }, g);
          el("title", {}, pr, w.name + " / " + r.name + " / " + p.name + ": " + plural(p.drawers, "drawer") + (p.files ? " in " + plural(p.files, "file") : "") + (p.language ? ", " + p.language : ""));
          pr.addEventListener("click", () => openRoom(w, r, rect));
          tiles.push({ rect: pr, part: p, room: r });
          // A file is named by its base name (its folder is in the
          // tooltip), a folder by its path.
          const name = p.name.endsWith("/") ? p.name : p.name.split("/").pop();
          if (pt.w > 30 && pt.h > 13) label(name, pt.x + 3, pt.y + 11, pt.w - 4);
          if (pt.w > 30 && pt.h > 26) label(String(p.drawers), pt.x + 3, pt.y + 22, pt.w - 4);
        }
      } else if (rt.w > 40 && rt.h > 24) {
        label(r.name, rt.x + 4, rt.y + 12, rt.w);
        label(String(r.drawers), rt.x + 4, rt.y + 23, rt.w);
      } else if (rt.w > 14 && rt.h > 11) {
        label(r.name, rt.x + 2, rt.y + 10, rt.w); // a small room keeps its name, cut
      }
    }
    el("rect", { class: "wing-box", x: wt.x + 0.5, y: wt.y + 0.5, width: Math.max(wt.w - 1, 0), height: Math.max(wt.h - 1, 0) }, g);
    el("title", {}, g, w.name + ": " + plural(w.drawers, "drawer") + " in " + plural(w.rooms.length, "room") + " (" + kindsText(w.kinds) + ")" + (w.root ? ", files in " + w.root : ""));
    const label = w.name + " · " + w.drawers;
    const max = Math.floor(wt.w / 7);
    if (max >= 3) el("text", { class: "wing-label", x: wt.x + 4, y: wt.y + 13 }, g, label.length > max ? label.slice(0, max - 1) + "…" : label);
  }

  // Tunnels: one dashed curve per pair of sides in different wings, from
  // room to room (from the wing when the room holds no drawer), bowed so
  // two links between the same wings stay apart.
  const pairs = {};
  const at = (s) => roomCentres[s.wing + "\u0000" + s.room] || centres[s.wing];
  for (const t of data.tunnels) {
    for (let i = 0; i < t.sides.length; i++) for (let j = i + 1; j < t.sides.length; j++) {
      const si = t.sides[i], sj = t.sides[j];
      const a = at(si), b = at(sj);
      if (!a || !b || si.wing === sj.wing) continue;
      const key = si.wing + "\u0000" + sj.wing;
      const n = (pairs[key] = (pairs[key] || 0) + 1);
      const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2, dx = b.x - a.x, dy = b.y - a.y;
      const len = Math.hypot(dx, dy) || 1, bow = 0.15 * len + 12 * (n - 1);
      const path = el("path", { class: "tunnel", d: "M" + a.x + "," + a.y + " Q" + (mx - (dy / len) * bow) + "," + (my + (dx / len) * bow) + " " + b.x + "," + b.y }, svg);
      el("title", {}, path, "tunnel " + (t.room || (t.keywords || []).join(", ")) + ": " + si.wing + "/" + si.room + " ↔ " + sj.wing + "/" + sj.room);
      el("circle", { class: "tunnel-end", cx: a.x, cy: a.y, r: 3 }, svg);
      el("circle", { class: "tunnel-end", cx: b.x, cy: b.y, r: 3 }, svg);
    }
  }

  function paint() {
    for (const m in buttons) buttons[m].setAttribute("aria-pressed", String(m === colourBy));
    for (const t of tiles) {
      let fill;
      if (colourBy === "kind") fill = kindColour(mainKind(t.room.kinds));
      else if (colourBy === "age") fill = ageColour(t.room.newest);
      else fill = t.part ? (t.part.rest ? cssVar("--ended") : langColour(t.part.language)) : roomLangColour(t.room);
      t.rect.setAttribute("fill", fill);
    }
    legend.textContent = "";
    if (colourBy === "language") {
      for (const l of langOrder.slice(0, 10)) {
        const c = html("span", legend, undefined, "chip");
        html("span", c, undefined, "swatch").style.background = langColour(l);
        c.appendChild(document.createTextNode(l));
      }
      const c = html("span", legend, undefined, "chip");
      html("span", c, undefined, "swatch").style.background = langColour("");
      c.appendChild(document.createTextNode("other"));
    } else if (colourBy === "kind") {
      for (const k of KINDS) {
        const c = html("span", legend, undefined, "chip");
        html("span", c, undefined, "swatch").style.background = kindColour(k);
        c.appendChild(document.createTextNode(k));
      }
    } else if (times.length) {
      for (const [label, t] of [["older", new Date(tMin).toISOString()], ["newer", new Date(tMax).toISOString()]]) {
        const c = html("span", legend, undefined, "chip");
        html("span", c, undefined, "swatch").style.background = ageColour(t);
        c.appendChild(document.createTextNode(label + " (" + day(t) + ")"));
      }
    }
  }
  paint();

  const panel = html("section", app);
  panel.id = "panel";
  html("p", panel, vscode ? "Click a room to list its drawers and search it." : "Click a room to list its drawers.", "muted");

  // Every room by name, whatever the size of its tile.
  html("h2", app, "Rooms");
  const roomList = html("ul", app, undefined, "list rooms");
  for (const w of data.wings) for (const r of w.rooms) {
    const li = html("li", roomList);
    const b = html("button", li, w.name + " / " + r.name);
    b.addEventListener("click", () => openRoom(w, r, tiles.find((t) => !t.part && t.room === r).rect));
    const what = mainKind(r.languages || {}) || mainKind(r.kinds);
    const parts = (r.parts || []).slice(0, 4).map((p) => p.name).join(", ");
    li.appendChild(document.createTextNode(" " + r.drawers + " · " + what + (parts ? " · " + parts + ((r.parts.length > 4 || r.rest) ? ", …" : "") : "")));
  }

  function openRoom(w, r, rect) {
    for (const t of tiles) t.rect.classList.toggle("selected", t.rect === rect || (t.part !== undefined && t.room === r));
    // In VS Code the Search view also opens on the room; the list here
    // shows its drawers even when no drawer says the room's name.
    if (vscode) vscode.postMessage({ type: "openRoom", wing: w.name, room: r.name });
    panel.textContent = "";
    html("h2", panel, w.name + " / " + r.name);
    html("p", panel, plural(r.drawers, "drawer") + " (" + kindsText(r.kinds) + "), " + day(r.oldest) + " to " + day(r.newest) + (w.root ? "; paths below " + w.root : ""), "muted");
    if ((r.parts || []).length) {
      html("p", panel, "Holds " + r.parts.map((p) => p.name + " (" + p.drawers + ")").join(", ") + (r.rest ? " and " + plural(r.rest, "more drawer") : ""));
    }
    const ul = html("ul", panel);
    for (const d of r.top || []) {
      const li = html("li", ul);
      html("span", li, d.citation, "cite");
      li.appendChild(document.createTextNode(" " + d.line));
    }
    const more = r.drawers - (r.top || []).length;
    if (more > 0) html("p", panel, "and " + plural(more, "more drawer") + ": palace search --wing " + w.name + " --room " + r.name + " …", "muted");
  }

  if (data.tunnels.length) {
    html("h2", app, "Tunnels");
    const ul = html("ul", app, undefined, "list");
    for (const t of data.tunnels) {
      html("li", ul, (t.room || (t.keywords || []).join(", ")) + ": " + t.sides.map((s) => s.wing + "/" + s.room + " (" + s.drawers + ")").join(" ↔ "));
    }
  }
  if (data.entities.length) {
    html("h2", app, "Entities");
    const bar2 = html("div", app, undefined, "bar");
    for (const e of data.entities) {
      const b = html("button", bar2, e.name + " · " + e.facts);
      b.title = plural(e.facts, "fact") + (e.type ? ", " + e.type : "");
      b.addEventListener("click", () => {
        if (vscode) { vscode.postMessage({ type: "openEntity", name: e.name }); return; }
        panel.textContent = "";
        html("h2", panel, e.name);
        html("p", panel, plural(e.facts, "fact") + ". Draw its graph: palace kg timeline \"" + e.name + "\" --html FILE", "muted");
      });
    }
  }
})();
