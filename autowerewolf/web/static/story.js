// The game at a glance, from its public events only (whatever the audience): who died each
// night as the moderator announced it, and the nights and days as a timeline whose segments
// scroll the transcript to their start.
import { html } from "/app/api.js";

const PUBLIC = "public";

// One line a night: the moderator's morning announcement, in the transcript's own words.
export function nightSummary(events) {
  return events
    .filter((e) => e.audience === PUBLIC && e.kind === "deaths_announced")
    .map((e) => ({ night: e.day, dead: e.targets, line: e.line }));
}

// The nights and days so far: each divider of the transcript starts a segment.
export function phases(rows) {
  return rows
    .filter((row) => row.event && row.event.audience === PUBLIC
      && (row.event.kind === "night_start" || row.event.kind === "day_start"))
    .map((row) => ({ night: row.event.kind === "night_start", day: row.event.day, n: row.n }));
}

export function NightSummary({ events }) {
  const nights = nightSummary(events);
  if (!nights.length) return null;
  return html`<div class="card nights" id="night-summary"><h3>The nights</h3>
    ${nights.map((n) => html`<p class="night-line" data-night=${n.night} data-dead=${n.dead.join(" ")}>
      <b>Night ${n.night}</b>: ${n.line}</p>`)}</div>`;
}

// Scroll the transcript box, not the page, to the divider numbered `n`.
function scrollToDivider(n) {
  const box = document.getElementById("transcript");
  const divider = box && box.querySelector(`[data-n="${n}"]`);
  if (divider) box.scrollTop = divider.offsetTop; // the box is the divider's offsetParent
}

export function Timeline({ rows }) {
  const segments = phases(rows);
  if (!segments.length) return null;
  const last = segments.length - 1;
  return html`<nav class="timeline" id="timeline" aria-label="phases">
    ${segments.map((s, i) => html`<button class=${`segment ${s.night ? "night-seg" : "day-seg"}${i === last ? " now" : ""}`}
        data-n=${s.n} title=${`${s.night ? "Night" : "Day"} ${s.day}: scroll the transcript there`}
        onClick=${() => scrollToDivider(s.n)}>${s.night ? "N" : "D"}${s.day}</button>`)}</nav>`;
}
