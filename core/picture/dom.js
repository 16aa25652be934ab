// What both pages build with: el makes an SVG element, html an HTML one,
// each with its text set as text (never parsed as markup) and appended to
// parent when one is given. Prepended to each page's script.
"use strict";
const NS = "http://www.w3.org/2000/svg";
function el(name, attrs, parent, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
function html(name, parent, text, cls) {
  const e = document.createElement(name);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  if (parent) parent.appendChild(e);
  return e;
}
