// Replay of a game: a version slider and step buttons over every seat's view
// (once the game is over), how it ended and its events in words, the revealed seed checked against its commitment, the
// whole record verified in the browser (docs/verification.md), an audit run as a
// job, and a fork at the slider's version.

import { ApiError, api, keepSeat, kindTitle, newKey, seatsHeld } from "./api.js";
import { clear, el, humanize, toast } from "./dom.js";
import { kindModule } from "./kinds/index.js";
import { allEvents, eventLine, makeCtx, outcomePanel, seatName } from "./table.js";
import { loadFaces } from "./faces.js";
import { markTerms, useTerms } from "./terms.js";
import { verifyRecord } from "./verify.js";

// The events that begin a command: projections/table.py COMMAND_STARTS.
export const COMMAND_STARTS = new Set([
  "ActionTaken", "SeatTaken", "SeatClaimed", "UndoRequested", "UndoAnswered", "UndoExpired", "DrawOffered", "DrawAnswered", "Rewound",
  "Resigned", "Aborted", "FlagFell", "Abandoned",
]);

async function sha256Hex(text) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function showReplay(root, gameId, params) {
  const held = seatsHeld(gameId);
  const heldSeat = Object.keys(held).map(Number).sort((a, b) => a - b)[0];
  const token = heldSeat !== undefined ? held[heldSeat].token : null;
  clear(root).appendChild(el("p", { class: "muted" }, "Loading the replay…"));
  let game;
  try { game = await api(`/v1/games/${encodeURIComponent(gameId)}`, { token }); } catch (e) { clear(root).appendChild(el("p", { class: "error" }, e.message)); return () => {}; }
  let events = [];
  try { events = await allEvents(gameId, token); } catch (e) { toast(e.message, "error"); }
  const [kindName] = await Promise.all([kindTitle(game.kind), loadFaces(game.kind)]);
  const kind = kindModule(game.kind);
  useTerms(game.kind, kind.terms);
  const last = game.version;
  let version = Math.min(last, Math.max(1, Number(params.get("v")) || last));
  let timer = null;
  let historyMissing = false;
  const cache = new Map();

  const slider = el("input", { type: "range", id: "replay-slider", min: 1, max: last, value: version, "aria-label": "version" });
  const label = el("output", { for: "replay-slider", class: "replay-version" });
  const views = el("div", { class: "replay-views" });
  const evBox = el("ol", { class: "log replay-log", "aria-label": "events up to this version", tabindex: "0" });
  const seedBox = el("section", { class: "panel seed-panel" }, el("h3", {}, "Fair deal"));
  const verifyBox = el("section", { class: "panel verify-panel" }, el("h3", {}, "Verification"));
  const auditBox = el("section", { class: "panel audit" }, el("h3", {}, "Audit"));
  const forkBox = el("section", { class: "panel fork" }, el("h3", {}, "Fork"));
  // The outcome only at the last version: a replay does not tell the ending before it comes.
  const outcomeBox = markTerms(outcomePanel(game, events));
  const outcomeLater = outcomeBox ? el("p", { class: "muted small", "data-testid": "outcome-later" }, "How it ended shows at the last version.") : null;
  const analysisBox = el("section", { class: "panel analysis", "data-testid": "analysis" }, el("h3", {}, "Analysis"));
  const playBtn = el("button", { type: "button", class: "secondary", "aria-label": "play" }, "▶ Play");
  const step = (d) => () => go(version + d);
  const controls = el("div", { class: "replay-controls" },
    el("button", { type: "button", onclick: () => go(1), "aria-label": "first version" }, "◀◀"),
    el("button", { type: "button", onclick: step(-1), "aria-label": "previous version", "data-testid": "step-back" }, "◀"),
    slider,
    el("button", { type: "button", onclick: step(1), "aria-label": "next version", "data-testid": "step-forward" }, "▶"),
    el("button", { type: "button", onclick: () => go(last), "aria-label": "last version" }, "▶▶"),
    playBtn, label);

  clear(root).appendChild(el("div", { class: "replay" },
    el("div", { class: "table-head" }, el("div", { class: "title-row" },
      el("h2", {}, `Replay: ${kindName}`), el("span", { class: ["pill", `status-${game.status}`] }, game.status),
      el("a", { class: "button secondary", href: `#/game/${gameId}` }, "Back to the table"))),
    controls,
    el("div", { class: "table-grid" },
      el("div", { class: "main-col" }, views, analysisBox),
      el("div", { class: "side-col" }, outcomeBox, outcomeLater, seedBox, verifyBox, auditBox, forkBox,
        el("section", { class: "panel log-panel" }, el("h3", {}, "Events to here"), evBox)))));

  slider.addEventListener("input", () => go(Number(slider.value)));
  playBtn.addEventListener("click", () => {
    if (timer) { clearInterval(timer); timer = null; playBtn.textContent = "▶ Play"; return; }
    if (version >= last) go(1);
    playBtn.textContent = "❚❚ Pause";
    timer = setInterval(() => { if (version >= last) { clearInterval(timer); timer = null; playBtn.textContent = "▶ Play"; } else go(version + 1); }, 400);
  });
  root.querySelector(".replay").addEventListener("keydown", (ev) => {
    if (ev.target === slider || ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowLeft") { go(version - 1); ev.preventDefault(); }
    if (ev.key === "ArrowRight") { go(version + 1); ev.preventDefault(); }
  });

  async function historyAt(v) {
    if (cache.has(v)) return cache.get(v);
    const got = await api(`/v1/games/${encodeURIComponent(gameId)}/history/${v}`, { token });
    cache.set(v, got);
    return got;
  }

  let drawing = 0;
  async function go(v) {
    version = Math.max(1, Math.min(last, v));
    slider.value = version;
    label.textContent = `version ${version} of ${last}`;
    if (outcomeBox) { outcomeBox.hidden = version < last; outcomeLater.hidden = version >= last; }
    const ticket = ++drawing;
    // events to here
    clear(evBox);
    const upto = events.filter((e) => e.version <= version).map((e) => eventLine(e, game, kind, null)).filter(Boolean);
    for (const line of upto.slice(-60)) evBox.appendChild(line);
    markTerms(evBox);
    evBox.scrollTop = evBox.scrollHeight;
    renderFork();
    if (historyMissing) return;
    let h;
    try { h = await historyAt(version); } catch (e) {
      if (ticket !== drawing) return;
      if (e.status === 404) historyMissing = true;
      clear(views).appendChild(el("p", { class: "error" }, historyMissing ? `Past views are not available (${e.message}); the event list shows the game instead.` : e.message));
      return;
    }
    if (ticket !== drawing) return;
    clear(views);
    const list = Array.isArray(h.views) ? h.views.map((view, s) => ({ view, seat: s })) : [{ view: h.view, seat: h.seat }];
    for (const { view, seat } of list) {
      const fake = { ...game, seat };
      const box = el("section", { class: "panel replay-seat" }, el("h3", {}, seat === null || seat === undefined ? "Spectator" : `${seatName(game.seats, seat)}'s view`));
      if (view === null || view === undefined) box.appendChild(el("p", { class: "muted" }, "Nothing dealt yet at this version."));
      else {
        try { box.appendChild(kind.render(view, makeCtx(fake, view, [], seat, true))); } catch (e) { box.appendChild(el("p", { class: "error" }, `This view could not be drawn: ${e.message}`)); }
      }
      views.appendChild(markTerms(box));
    }
  }

  async function renderSeed() {
    seedBox.appendChild(el("p", {}, "Commitment published at creation: ", el("code", { class: "hash" }, game.seed_commitment)));
    if (!game.seed) { seedBox.appendChild(el("p", { class: "muted" }, "The seed is revealed when the game ends.")); return; }
    seedBox.appendChild(el("p", {}, "Revealed seed: ", el("code", { class: "hash", "data-testid": "seed" }, game.seed)));
    const hex = await sha256Hex(game.seed);
    if (hex === null) seedBox.appendChild(el("p", { class: "muted" }, "This browser cannot hash here (not a secure context)."));
    else seedBox.appendChild(el("p", { class: hex === game.seed_commitment ? "ok" : "error" }, hex === game.seed_commitment ? "✓ sha256(seed) matches the commitment." : "✗ sha256(seed) does not match the commitment."));
    if (!game.fair_deal) seedBox.appendChild(el("p", { class: "warn" }, "The creator fixed the deal: not a fair deal."));
  }

  // The record as anyone may fetch it, checked by this page alone: the chain, the head
  // and the ledger entry, and once the game is over the seed, every commitment opened
  // and every draw re-derived.
  async function renderVerify() {
    const out = el("div", { class: "verify-result", role: "status", "data-testid": "verify" }, el("p", { class: "muted" }, "Verifying the record…"));
    verifyBox.append(out);
    let verdict;
    try {
      const record = await api(`/v1/games/${encodeURIComponent(gameId)}/replay`, { token });
      verdict = await verifyRecord(record);
    } catch (e) {
      clear(out).appendChild(el("p", { class: "error" }, `The record could not be verified: ${e.message}`));
      return;
    }
    const plural = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;
    let summary;
    if (!verdict.ok) summary = `✗ Verification failed at version ${verdict.first_bad_version}: ${verdict.reason}.`;
    else if (verdict.over) {
      summary = `✓ Chain of ${plural(verdict.events, "event")}, ${plural(verdict.commitments, "commitment")} opened, ${plural(verdict.draws, "draw")} re-derived.`;
    } else summary = `✓ Chain of ${plural(verdict.events, "event")} verified; the hidden values open when the game ends.`;
    clear(out).append(el("p", { class: verdict.ok ? "ok" : "error" }, summary),
      el("ul", { class: "checks muted small" }, verdict.checked.map((line) => el("li", {}, line))));
  }

  function renderAudit() {
    const out = el("div", { class: "audit-result", role: "status" });
    const run = el("button", { type: "button", "data-testid": "audit" }, "Run an audit");
    run.addEventListener("click", async () => {
      run.disabled = true;
      clear(out).append("Queued…");
      try {
        let job = await api(`/v1/games/${encodeURIComponent(gameId)}/audits`, { method: "POST", token, body: {}, headers: { "Idempotency-Key": newKey() } });
        for (let i = 0; i < 240 && !["finished", "failed", "stopped", "canceled"].includes(job.status); i += 1) {
          clear(out).append(`Auditing… ${job.progress?.done ?? 0}/${job.progress?.total || "?"}`);
          await new Promise((r) => setTimeout(r, 500));
          job = await api(`/v1/jobs/${encodeURIComponent(job.id)}`, { token });
        }
        if (job.status !== "finished") throw new ApiError(500, { detail: job.error || `The audit ${job.status || "did not finish"}.` });
        const report = job.result ? await api(job.result, { token }) : null;
        clear(out);
        if (!report) { out.append("The audit finished."); return; }
        out.append(el("p", { class: report.ok ? "ok" : "error" }, report.ok ? `✓ Audit passed: ${report.versions} versions, ${report.actions} actions re-decided.` : `✗ Audit failed at version ${report.first_bad_version}: ${report.reason}`),
          el("ul", { class: "checks" }, Object.entries(report.checks || {}).map(([k, v]) => el("li", {}, `${humanize(k)}: ${v}`))));
      } catch (e) {
        clear(out).append(el("p", { class: "error" }, e.status === 404 ? `Audits are not available: ${e.message}` : e.message));
      } finally { run.disabled = false; }
    });
    auditBox.append(el("p", { class: "muted" }, "Checks the hash chain, re-decides every action, the seed commitment, and that the snapshot equals the fold."), run, out);
  }

  // A version lies between two commands when the next event begins one (or it is the
  // last): only there is the state whole, so only there does a fork start. The set is
  // the server's COMMAND_STARTS (projections/table.py); a test keeps the two equal.
  const typeAt = new Map(events.map((e) => [e.version, e.type]));
  const betweenCommands = (v) => v >= last || COMMAND_STARTS.has(typeAt.get(v + 1));

  function renderFork() {
    clear(forkBox).appendChild(el("h3", {}, "Fork"));
    if (betweenCommands(version)) {
      forkBox.append(el("p", { class: "muted" }, `Start a new game from version ${version}, with you in the human seats and bots where there were bots.`),
        el("button", { type: "button", "data-testid": "fork", onclick: fork }, `Fork at version ${version}`));
      return;
    }
    let before = version - 1;
    while (before > 1 && !betweenCommands(before)) before -= 1;
    let after = version + 1;
    while (after < last && !betweenCommands(after)) after += 1;
    const nearest = before > 1 ? `${before} and ${after}` : `${after}`;
    forkBox.append(el("p", { class: "muted", "data-testid": "fork-why" }, `Version ${version} is in the middle of a command (the deal, or an action's effects), where the table is half-made. The nearest to fork at: ${nearest}.`),
      el("button", { type: "button", "data-testid": "fork", disabled: true }, `Fork at version ${version}`));
  }

  async function fork() {
    const name = localStorage.getItem("tablestream:name") || "Player";
    const players = game.seats.map((s) => (s.bot ? { bot: s.bot } : { name: s.name || name }));
    try {
      const created = await api(`/v1/games/${encodeURIComponent(gameId)}/forks`, { method: "POST", token, body: { at_version: version, players }, headers: { "Idempotency-Key": newKey() } });
      let mine = null;
      for (const s of created.seats || []) if (s.token) { keepSeat(created.id, s.seat, s.token, s.name); if (mine === null) mine = s.seat; }
      toast(`Forked at version ${version}.`);
      location.hash = `#/game/${created.id}${mine !== null ? `?seat=${mine}` : ""}`;
    } catch (e) {
      toast(e.status === 404 ? `Forks are not available: ${e.message}` : e.message, "error");
    }
  }

  // The analysis (a worker's, from each seat's information only): each seat's expected
  // score after its moves, version by version, the costliest moves marked; a mark's
  // click moves the slider there.
  function drawAnalysis(found) {
    const width = 640, height = 180, pad = 24;
    const x = (v) => pad + ((width - 2 * pad) * (v - 1)) / Math.max(1, last - 1);
    const y = (p) => height - pad - (height - 2 * pad) * p;
    const colours = ["#2a6fdb", "#d9480f", "#2b8a3e", "#862e9c", "#e67700", "#0b7285"];
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "each seat's expected score over the game");
    svg.setAttribute("data-testid", "analysis-chart");
    const shape = (tag, attrs) => { const node = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v); svg.appendChild(node); return node; };
    shape("line", { x1: pad, y1: y(0.5), x2: width - pad, y2: y(0.5), stroke: "#bbb", "stroke-dasharray": "4 4" });
    for (let seat = 0; seat < found.seats; seat += 1) {
      const mine = found.decisions.filter((d) => d.seat === seat);
      if (!mine.length) continue;
      shape("polyline", { points: mine.map((d) => `${x(d.version)},${y(d.after)}`).join(" "), fill: "none", stroke: colours[seat % colours.length], "stroke-width": 2, "data-seat": seat });
      for (const d of mine.filter((m) => m.costly)) {
        const mark = shape("circle", { cx: x(d.version), cy: y(d.after), r: 5, fill: colours[seat % colours.length], class: "costly", tabindex: "0", "data-version": d.version });
        const title = document.createElementNS(ns, "title");
        title.textContent = `${seatName(game.seats, seat)} at version ${d.version}: cost ${Math.round(d.cost * 100)} points of expected score`;
        mark.appendChild(title);
        mark.addEventListener("click", () => go(d.version));
      }
    }
    clear(analysisBox).append(el("h3", {}, "Analysis"),
      el("p", { class: "muted small" }, `Each seat's expected score after its moves, as a search from that seat's own information judged them (${found.iterations} iterations a decision); the dots are each seat's costliest moves: click one to go there.`),
      svg,
      el("ul", { class: "legend" }, game.seats.map((s, seat) => el("li", { style: `color: ${colours[seat % colours.length]}` }, seatName(game.seats, seat)))));
  }

  async function renderAnalysis() {
    if (game.status !== "finished") { analysisBox.remove(); return; }
    try { drawAnalysis(await api(`/v1/games/${encodeURIComponent(gameId)}/analysis`)); return; }
    catch (e) { if (e.status !== 404) { analysisBox.append(el("p", { class: "error" }, e.message)); return; } }
    const out = el("div", { role: "status" });
    const run = el("button", { type: "button", "data-testid": "analyse" }, "Analyse the game");
    run.addEventListener("click", async () => {
      run.disabled = true;
      try {
        let job = await api(`/v1/games/${encodeURIComponent(gameId)}/analyses`, { method: "POST" });
        for (let i = 0; i < 600 && !["finished", "failed", "stopped", "canceled"].includes(job.status); i += 1) {
          clear(out).append(`Analysing… ${job.progress?.done ?? 0}/${job.progress?.total || "?"} versions`);
          await new Promise((r) => setTimeout(r, 500));
          job = await api(`/v1/jobs/${encodeURIComponent(job.id)}`);
        }
        if (job.status !== "finished") throw new ApiError(500, { detail: job.error || `The analysis ${job.status || "did not finish"}.` });
        drawAnalysis(await api(`/v1/games/${encodeURIComponent(gameId)}/analysis`));
      } catch (e) {
        clear(out).append(el("p", { class: "error" }, e.message));
        run.disabled = false;
      }
    });
    analysisBox.append(el("p", { class: "muted" }, "A worker looks at every move where a seat had a choice, from that seat's information only, and charts each seat's chances."), run, out);
  }

  renderSeed();
  renderVerify();
  renderAudit();
  renderAnalysis();
  go(version);
  return () => { if (timer) clearInterval(timer); };
}
