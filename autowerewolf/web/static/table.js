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

export function SeatCircle({ players, focus, centre }) {
  const n = players.length || 1;
  return html`<div class="circle" id="circle">
    ${players.map((p, i) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
      const style = `left:${50 + 41 * Math.cos(angle)}%;top:${50 + 41 * Math.sin(angle)}%`;
      const classes = ["seat", p.alive ? "alive" : "dead", focus.has(p.seat) ? "focus" : ""];
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

// Ballots per vote and round, from the ballot events shown so far.
export function Votes({ events }) {
  const rounds = new Map();
  for (const e of events) {
    if (e.kind !== "ballot" && e.kind !== "vote_result") continue;
    const key = `Day ${e.day} · ${e.value} · round ${e.round ?? 1}`;
    if (!rounds.has(key)) rounds.set(key, { ballots: [], result: null });
    if (e.kind === "ballot") rounds.get(key).ballots.push(e);
    else rounds.get(key).result = e.line;
  }
  if (!rounds.size) return null;
  return html`<div class="votes" id="votes"><h3>Votes</h3>
    ${[...rounds.entries()].map(([key, round]) => html`<table class="vote-round">
      <caption>${key}</caption>
      <tbody>${round.ballots.map((b) => html`<tr><td>${b.actor}</td><td>→</td>
        <td>${b.target ?? "abstain"}</td><td>${b.weight && b.weight !== 1 ? `×${b.weight}` : ""}</td></tr>`)}
      </tbody>
      ${round.result && html`<tfoot><tr><td colspan="4">${round.result}</td></tr></tfoot>`}
    </table>`)}
  </div>`;
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
