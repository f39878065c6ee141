// The table at one moment: seats around a circle, the transcript with phase dividers, and
// the votes per round. Every line of text comes rendered from the server (the one renderer).
import { useEffect, useRef } from "preact/hooks";
import { html } from "/app/api.js";

const DIVIDERS = new Set(["night_start", "day_start"]);

function seatRole(player) {
  if (player.role) return player.role;
  if (player.revealed_role) return player.revealed_role;
  return player.teammate ? "wolf (teammate)" : "";
}

export function SeatCircle({ players, focus, speaking, centre }) {
  const n = players.length || 1;
  return html`<div class="circle" id="circle">
    ${players.map((p, i) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
      const style = `left:${50 + 41 * Math.cos(angle)}%;top:${50 + 41 * Math.sin(angle)}%`;
      const classes = ["seat", p.alive ? "alive" : "dead", focus.has(p.seat) ? "focus" : "",
        p.seat === speaking ? "speaking" : ""];
      return html`<div class=${classes.join(" ")} style=${style} data-seat=${p.seat}
          data-alive=${String(p.alive)}>
        <div class="seat-id">${p.seat}${p.sheriff ? html` <span class="badge" title="sheriff">★</span>` : ""}</div>
        <div class="seat-name">${p.name}</div>
        <div class="seat-role">${seatRole(p)}</div>
        ${p.alive ? "" : html`<div class="seat-dead">dead</div>`}
      </div>`;
    })}
    <div class="centre">${centre}</div>
  </div>`;
}

export function Transcript({ rows, onRecord }) {
  // The newest line shown (live, or the replay's position) stays in view.
  const box = useRef(null);
  useEffect(() => { if (box.current) box.current.scrollTop = box.current.scrollHeight; }, [rows.length]);
  return html`<div class="transcript" id="transcript" ref=${box}>
    ${rows.map((row) => {
      if (row.records) {
        return html`<div class="decisions">decisions:
          ${row.records.map((r) => html`<button class="record" data-ref=${r.ref}
              title=${`${r.key} (${r.player})`} onClick=${() => onRecord(r.ref)}>
            ${r.seat} ${r.step} → ${r.option}</button>`)}</div>`;
      }
      const e = row.event;
      const cls = DIVIDERS.has(e.kind) ? "divider" : `line ${e.audience === "public" ? "" : "private"}`;
      return html`<div class=${cls} data-kind=${e.kind} data-n=${row.n}>${e.line}</div>`;
    })}
  </div>`;
}

// Who voted whom: one row per seat, one column per vote round (sheriff weight marked),
// the tally under each column. From the ballot events shown so far.
export function VoteGrid({ events, players }) {
  const rounds = [];
  const byKey = new Map();
  for (const e of events) {
    if (e.kind !== "ballot" && e.kind !== "vote_result") continue;
    const key = `${e.day}|${e.value}|${e.round ?? 1}`;
    if (!byKey.has(key)) {
      const round = { key, day: e.day, vote: e.value, round: e.round ?? 1, ballots: {}, result: null };
      byKey.set(key, round);
      rounds.push(round);
    }
    const round = byKey.get(key);
    if (e.kind === "ballot") round.ballots[e.actor] = e;
    else round.result = e.line;
  }
  // The tally of a round: weighted ballots per target, most first.
  const tally = (round) => {
    const counts = {};
    for (const b of Object.values(round.ballots)) {
      if (b.target) counts[b.target] = (counts[b.target] || 0) + (b.weight || 1);
    }
    return Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(", ");
  };
  if (!rounds.length) return null;
  const seats = players.map((p) => p.seat);
  const cell = (b) => {
    if (!b) return html`<td class="none">·</td>`;
    const weight = b.weight && b.weight !== 1 ? html`<sup title="sheriff's weight">×${b.weight}</sup>` : "";
    return b.target ? html`<td class="target">${b.target}${weight}</td>` : html`<td class="abstain">abstain${weight}</td>`;
  };
  return html`<div class="card votes" id="votes"><h3>Votes</h3>
    <div class="grid-scroll"><table class="vote-grid" id="vote-grid">
      <thead><tr><th>seat</th>${rounds.map((r) => html`<th title=${r.result || ""}>D${r.day} ${r.vote}${r.round > 1 ? ` r${r.round}` : ""}</th>`)}</tr></thead>
      <tbody>${seats.map((seat) => html`<tr data-seat=${seat}><th>${seat}</th>${rounds.map((r) => cell(r.ballots[seat]))}</tr>`)}</tbody>
      <tfoot><tr><th>tally</th>${rounds.map((r) => html`<td class="result" title=${r.result || ""}>${tally(r)}</td>`)}</tr></tfoot>
    </table></div>
  </div>`;
}

// Night or day as of the events shown: the last night's fall or dawn decides.
export function phaseAt(events) {
  let night = events.length === 0;
  let number = 1;
  for (const e of events) {
    if (e.kind === "night_start") { night = true; number = e.day; }
    if (e.kind === "day_start") { night = false; number = e.day; }
  }
  return { night, number };
}

// The seats as of the `shown`-th event: a frame's players hold after its last event, so in
// the middle of a frame the table is still the previous frame's (no death before its vote).
export function playersAt(frames, events, shown) {
  if (!frames.length) return [];
  if (!shown) return frames[0].players;
  const f = events[shown - 1].frame;
  const endsFrame = shown === events.length || events[shown].frame !== f;
  return endsFrame || f === 0 ? frames[f].players : frames[f - 1].players;
}

// The end: what the moderator reveals to everyone once the game is over.
export function Reveal({ lines }) {
  if (!lines.length) return null;
  return html`<div class="card reveal" id="reveal"><h3>The moderator reveals</h3>
    ${lines.map((e) => html`<p class="line" data-kind=${e.kind}>D${e.day} ${e.line}</p>`)}</div>`;
}

// The events up to a cursor (null: all of them), with the frame each belongs to.
export function flatten(frames) {
  const events = [];
  frames.forEach((frame, f) => frame.events.forEach((event) => events.push({ event, frame: f })));
  return events;
}

export function rowsUpTo(frames, shown) {
  const rows = [];
  let n = 0;
  for (const frame of frames) {
    for (const event of frame.events) {
      if (n >= shown) return rows;
      rows.push({ event, n });
      n += 1;
    }
    if (frame.records.length) rows.push({ records: frame.records });
  }
  return rows;
}
