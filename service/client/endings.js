// The endings besides the rules' and the clocks, in words: how a game ended
// (resignation, abort, time, abandonment), the platform events that end it, the seats
// that left, the moves the turn timer made, and each seat's clock as it runs in this
// browser. Seat names come from the caller's `name(i)`; nothing here touches the page.

// How a seat left the game (a seat's `left`), as a mark beside its name.
export const LEFT_WORDS = { resignation: "resigned", time: "out of time", abandonment: "abandoned" };

const LEAVING = { Resigned: "resignation", FlagFell: "time", Abandoned: "abandonment" };

function names(seats, name) {
  const list = seats.map(name);
  return list.length > 1 ? `${list.slice(0, -1).join(", ")} and ${list.at(-1)}` : list.join("");
}

function wins(winners, name) {
  if (!winners.length) return "";
  return ` — ${names(winners, name)} ${winners.length > 1 ? "win" : "wins"}`;
}

function timerMoves(n) {
  return `${n} ${n === 1 ? "move" : "moves"} in a row by the timer`;
}

// The event that ended the game by a seat leaving (or by an abort), if the log has it.
function endingEvent(events) {
  for (let i = (events || []).length - 1; i >= 0; i -= 1) {
    const e = events[i];
    if (Object.hasOwn(LEAVING, e.type) || e.type === "Aborted") return e;
  }
  return null;
}

// Without the log: the seat that left by this ending, or else the one in the outcome's
// `left` that the seats do not show as gone yet (the table drawn before its last events).
function leaverOf(game, ending) {
  const seats = game.seats || [];
  const gone = seats.filter((s) => s.left === ending).map((s) => s.seat);
  if (gone.length) return gone.at(-1);
  return (game.outcome?.left || []).filter((i) => !seats[i]?.left).at(-1);
}

// A finished game's ending in words: {ending, headline, detail}. Older games have no
// `ending`: they ended by their rules.
export function describeEnding(game, name, events = []) {
  const o = game.outcome || {};
  const ending = o.ending || "rules";
  const winners = o.winners || [];
  const last = endingEvent(events);
  if (ending === "abort") {
    const by = last?.type === "Aborted" ? last.data?.by : null;
    const detail = by !== null && by !== undefined ? `${name(by)} aborted the game: no result, no rating change.` : `${o.reason || "Aborted."} No result, no rating change.`;
    return { ending, headline: "Aborted", detail };
  }
  if (ending === "rules") {
    return { ending, headline: winners.length ? `Winner: ${names(winners, name)}` : "Game over", detail: o.reason || "" };
  }
  if (ending === "agreement") {
    return { ending, headline: winners.length === 2 ? "Drawn by agreement" : "Ended by agreement", detail: `${names(winners, name)} agreed to end the game and share the result.` };
  }
  const leaver = last && LEAVING[last.type] === ending ? last.data?.seat : leaverOf(game, ending);
  const who = leaver === undefined || leaver === null ? "A seat" : name(leaver);
  let headline;
  if (ending === "resignation") headline = `${who} resigned`;
  else if (ending === "time") headline = `${who} ran out of time`;
  else {
    const count = last?.type === "Abandoned" ? last.data?.timeouts : game.lifecycle?.abandon_after;
    headline = `${who} abandoned the game${count ? ` (${timerMoves(count)})` : ""}`;
  }
  return { ending, headline: headline + wins(winners, name), detail: "" };
}

// A platform event of the lifecycle in words (null for any other event).
export function lifecycleEventText(event, name, game) {
  const d = event.data || {};
  switch (event.type) {
    case "Resigned": return `${name(d.seat)} resigned`;
    case "FlagFell": return `${name(d.seat)} ran out of time`;
    case "Abandoned": return `${name(d.seat)} abandoned the game (${timerMoves(d.timeouts)})`;
    case "Aborted": return d.by !== null && d.by !== undefined ? `${name(d.by)} aborted the game` : (d.reason || "The game was aborted");
    case "SeedRevealed": {
      if (!d.outcome) return null;
      const { headline } = describeEnding({ ...game, outcome: d.outcome }, name);
      return `Game over: ${headline}`;
    }
    default: return null;
  }
}

// The seats that made a move of their own (not the turn timer's) by the end of `events`;
// an undo takes back the moves after its version. The server's rule for an abort: a seat
// may abort until every seat has made one.
export function seatsThatMoved(events) {
  let moved = new Set();
  const at = new Map();
  for (const e of events) {
    if (e.type === "Rewound") moved = new Set(at.get(e.data?.to_version) || []);
    else if (e.type === "ActionTaken" && e.seat !== null && e.seat !== undefined && e.actor !== "timeout") moved = new Set(moved).add(e.seat);
    at.set(e.version, moved);
  }
  return moved;
}

// Each seat's time left, read against this browser's clock: the answer's `as_of` (the
// server's now) against the moment it arrived cancels any skew between the two clocks.
export function clockReader(clock, receivedAt = Date.now()) {
  const offset = clock.as_of ? Date.parse(clock.as_of) - receivedAt : 0;
  return (seat, now = Date.now()) => {
    const base = clock.remaining_ms?.[seat] ?? 0;
    const since = clock.since?.[seat];
    if (!since) return Math.max(0, base);
    return Math.max(0, base - Math.max(0, now + offset - Date.parse(since)));
  };
}

// A time left as 1:02:03, 4:05, or under ten seconds with tenths (0:07.3).
export function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return `0:0${(Math.floor(t / 100) / 10).toFixed(1)}`;
  const total = Math.floor(t / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

// Little time left: under ten seconds, or under a tenth of the initial time (a minute at most).
export function isLow(ms, clock) {
  const initial = (clock.initial_seconds || 0) * 1000;
  return ms < Math.min(60000, Math.max(10000, initial / 10));
}

export function timeControlText(game) {
  const c = game.clock;
  if (c) {
    const minutes = c.initial_seconds >= 60 ? `${+(c.initial_seconds / 60).toFixed(2)} min` : `${c.initial_seconds} s`;
    return `clock ${minutes} + ${c.increment_seconds} s`;
  }
  return game.turn_seconds ? `${game.turn_seconds} s a turn` : null;
}
