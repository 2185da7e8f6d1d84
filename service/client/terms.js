// A kind's vocabulary explained where it is read. Each kind's module lists its terms
// (`terms`, kinds/README.md); `markTerms` wraps every term found in the text of a part
// of the page in <dfn class="term">, and one popover, shared by the whole page, shows
// what it means on hover, on focus and on tap (a title attribute never shows on a touch
// screen), kept inside the window and dismissed by Escape or by tapping elsewhere.
//
// A term inside a control (a button, a card the board made a button, a menu item) is no
// tab stop of its own, since a control holds no other control: the control is described
// by it instead, and its popover shows on hover, or when the control gets keyboard focus.

import { el } from "./dom.js";

const GAP = 6; // px between a term and its popover, and from the window's edge
const CONTROL = "button, a[href], summary, label, [role=button], [role=menuitem], [role=link], [role=img], [role=tab], [role=option], [role=checkbox]";
// Text never marked: code, form fields, a card's own name (its face explains it), what
// assistive technology does not read (a tab stop there would be reached unseen), and
// terms already marked.
const SKIP = "script, style, code, pre, textarea, input, select, option, svg, dfn.term, .named-title, [aria-hidden=true], #term-tip, #term-defs";

const glossaries = new Map(); // kind -> {entries: [{term, text, forms, id, pattern}], any}
const explained = new Map(); // a term's id (its dfn's data-def) -> its entry
let currentKind = null;
let tip = null;
let anchor = null; // the term or the control the popover is shown for
let byHover = false;

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

// A kind's terms, each with its pattern: its `forms` (patterns, case aside), else the term
// itself with an optional plural, as whole words.
function compile(kind, terms) {
  const sourceOf = (t) => `(?<!\\w)(?:${(t.forms || [`${escape(t.term)}(?:e?s)?`]).join("|")})(?!\\w)`;
  const entries = terms.map((t) => ({ ...t, id: `term-${slug(kind)}-${slug(t.term)}`, pattern: new RegExp(sourceOf(t), "gi") }));
  // One look for any term first: most of a table's texts hold none.
  return { entries, any: new RegExp(terms.map(sourceOf).join("|"), "i") };
}

// Where terms are in a text: the longest at a place ("Dragon Tower decision" over "Dragon
// Tower"), the leftmost first, none overlapping.
function found(text, glossary) {
  if (!glossary.any.test(text)) return [];
  const hits = glossary.entries.flatMap((entry) => [...text.matchAll(entry.pattern)]
    .filter((m) => m[0]).map((m) => ({ entry, at: m.index, end: m.index + m[0].length })));
  hits.sort((a, b) => a.at - b.at || b.end - a.end);
  const kept = [];
  for (const hit of hits) if (!kept.length || hit.at >= kept.at(-1).end) kept.push(hit);
  return kept;
}

// The explanations, hidden, once per page: what a term's or a control's aria-describedby names.
function definitions(glossary) {
  let box = document.getElementById("term-defs");
  if (!box) box = document.body.appendChild(el("div", { id: "term-defs", hidden: true }));
  for (const t of glossary.entries) {
    explained.set(t.id, t);
    if (!document.getElementById(t.id)) box.appendChild(el("span", { id: t.id, role: "definition" }, `${t.term}: ${t.text}`));
  }
}

// Makes `kind`'s terms (its module's `terms`) the ones marked from now on.
export function useTerms(kind, terms) {
  if (!terms || !terms.length) { currentKind = null; return; }
  if (!glossaries.has(kind)) glossaries.set(kind, compile(kind, terms));
  definitions(glossaries.get(kind));
  currentKind = kind;
  listen();
}

function describedBy(node, id) {
  const ids = new Set((node.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean));
  ids.add(id);
  node.setAttribute("aria-describedby", [...ids].join(" "));
}

// Wraps every term in the text under `root` (answered). Outside controls the first of each
// term under `within` is a tab stop and the others are reached by pointer or tap only, so a
// keyboard does not stop at every "Fortress" of the table; a <details> counts apart, as
// what it holds cannot be reached while it is closed.
export function markTerms(root, kind = currentKind, within = root) {
  const glossary = glossaries.get(kind);
  if (!root || !glossary) return root;
  const reached = new Map([[within, new Set([...within.querySelectorAll('dfn.term[tabindex="0"]')].map((n) => n.dataset.term))]]);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement && !n.parentElement.closest(SKIP) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT),
  });
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode);
  for (const text of texts) {
    const hits = found(text.data, glossary);
    if (!hits.length) continue;
    const control = text.parentElement.closest(CONTROL);
    const parts = [];
    let last = 0;
    for (const { entry, at, end } of hits) {
      parts.push(text.data.slice(last, at));
      const term = el("dfn", { class: "term", "data-term": entry.term, "data-def": entry.id }, text.data.slice(at, end));
      if (control) describedBy(control, entry.id);
      else {
        const region = text.parentElement.closest("details") || within;
        if (!reached.has(region)) reached.set(region, new Set());
        term.tabIndex = reached.get(region).has(entry.term) ? -1 : 0;
        reached.get(region).add(entry.term);
        term.setAttribute("aria-describedby", entry.id);
      }
      parts.push(term);
      last = end;
    }
    parts.push(text.data.slice(last));
    text.replaceWith(...parts.filter((p) => p !== ""));
  }
  if (anchor && !anchor.isConnected) hide();
  return root;
}

// ---------------------------------------------------------------- the popover

function show(at, terms, hover = false) {
  const entries = [...new Set(terms.map((t) => explained.get(t.dataset.def)).filter(Boolean))];
  if (!entries.length) return;
  anchor = at;
  byHover = hover;
  tip.replaceChildren(...entries.map((t) => el("p", {}, el("b", {}, t.term), ": ", t.text)));
  // A modal dialog (a card's face) is drawn above everything else on the page: the popover
  // of a term in it goes inside it.
  (at.closest("dialog[open]") || document.body).appendChild(tip);
  tip.hidden = false;
  place();
}

function hide() {
  if (!tip || tip.hidden) return;
  tip.hidden = true;
  anchor = null;
}

// Under its anchor, or above it when there is no room below; always inside the window.
function place() {
  if (!anchor || tip.hidden) return;
  if (!anchor.isConnected) { hide(); return; }
  const at = anchor.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const height = document.documentElement.clientHeight;
  if (at.bottom < 0 || at.top > height) { hide(); return; }
  const w = tip.offsetWidth;
  const h = tip.offsetHeight;
  const left = Math.max(GAP, Math.min(at.left + at.width / 2 - w / 2, width - w - GAP));
  let top = at.bottom + GAP;
  if (top + h > height - GAP && at.top - GAP - h >= GAP) top = at.top - GAP - h;
  tip.style.left = `${left}px`;
  tip.style.top = `${Math.max(GAP, Math.min(top, height - h - GAP))}px`;
}

// The pointer may move from a term onto its popover without losing it: the popover lets
// clicks through (it never stands between a player and the table), so whether the pointer
// is still over the pair is read from where it is.
function pointerLeft(ev) {
  if (!anchor || !byHover || document.activeElement === anchor) return;
  const boxes = [anchor.getBoundingClientRect(), tip.getBoundingClientRect()];
  const left = Math.min(...boxes.map((b) => b.left));
  const right = Math.max(...boxes.map((b) => b.right));
  const top = Math.min(...boxes.map((b) => b.top));
  const bottom = Math.max(...boxes.map((b) => b.bottom));
  if (ev.clientX < left || ev.clientX > right || ev.clientY < top || ev.clientY > bottom) hide();
}

function listen() {
  if (tip) return;
  tip = el("div", { id: "term-tip", class: "term-tip", role: "tooltip", "data-testid": "term-tip", hidden: true });
  document.addEventListener("mouseover", (ev) => {
    const term = ev.target.closest?.("dfn.term");
    if (term && term !== anchor) show(term, [term], true);
  });
  document.addEventListener("mousemove", pointerLeft, { passive: true });
  document.addEventListener("focusin", (ev) => {
    const node = ev.target;
    // Focus by the keyboard only: a dialog's first term, focused as it opens, stays quiet.
    if (!node.matches?.(":focus-visible")) return;
    if (node.matches("dfn.term")) show(node, [node]);
    else if (node.matches(CONTROL) && node.querySelector("dfn.term")) show(node, [...node.querySelectorAll("dfn.term")]);
  });
  document.addEventListener("focusout", (ev) => { if (ev.target === anchor) hide(); });
  // A tap on a term shows it (and focuses it: tabindex -1 ones too); a tap anywhere else
  // dismisses it.
  document.addEventListener("pointerdown", (ev) => {
    if (anchor && !anchor.contains(ev.target)) hide();
  });
  document.addEventListener("click", (ev) => {
    const term = ev.target.closest?.("dfn.term");
    if (!term || term.closest(CONTROL)) return;
    show(term, [term]);
    term.focus({ preventScroll: true });
  });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") hide(); });
  window.addEventListener("scroll", place, { capture: true, passive: true });
  window.addEventListener("resize", place);
}
