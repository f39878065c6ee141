// A live day at a reading pace: the bots' speeches and votes of a day arrive within a
// fraction of a second, so the live view reveals the events that arrive after the backlog
// one at a time, each shown long enough to read it. A switch shows each line at once
// (remembered in this browser). A question for the seat reveals everything before it at
// once: what must be answered is never held back.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "/app/api.js";

const PACE_KEY = "aw-pace";
const SPOKEN = new Set(["speech"]);
const SPEECH_MS = { base: 700, perChar: 28, min: 1200, max: 5000 };
const BALLOT_MS = 350;
const LINE_MS = 500;

export const isPaced = () => localStorage.getItem(PACE_KEY) !== "instant";

// How long an event stays the newest line before the next one is revealed.
export function readingMs(event) {
  if (!event) return 0;
  if (SPOKEN.has(event.kind)) {
    const ms = SPEECH_MS.base + SPEECH_MS.perChar * (event.line || "").length;
    return Math.min(SPEECH_MS.max, Math.max(SPEECH_MS.min, ms));
  }
  return event.kind === "ballot" ? BALLOT_MS : LINE_MS;
}

// How many of `events` (flattened: {event, frame}) the live view shows: all of the backlog once `ready`, then one more
// each reading time, or all at once when not `paced` or when `urgent` (a question waits).
export function useReveal(events, ready, paced, urgent) {
  const total = events.length;
  const [revealed, setRevealed] = useState(0);
  const since = useRef(0); // when the newest shown event was revealed
  const backlogged = useRef(false);
  useEffect(() => {
    if (!ready) { backlogged.current = false; return undefined; }
    if (!backlogged.current || !paced || urgent) {
      backlogged.current = true;
      if (revealed !== total) { since.current = performance.now(); setRevealed(total); }
      return undefined;
    }
    if (revealed >= total) return undefined;
    const newest = events[revealed - 1];
    const wait = readingMs(newest && newest.event) - (performance.now() - since.current);
    const timer = setTimeout(() => {
      since.current = performance.now();
      setRevealed((r) => Math.min(r + 1, events.length));
    }, Math.max(0, wait));
    return () => clearTimeout(timer);
  }, [total, revealed, ready, paced, urgent]);
  // Unpaced, everything received is shown at once, before the backlog's end too.
  return paced && !urgent ? Math.min(revealed, total) : total;
}

export function PaceSwitch({ paced, onChange, pending }) {
  const flip = (e) => {
    localStorage.setItem(PACE_KEY, e.target.checked ? "instant" : "paced");
    onChange(!e.target.checked);
  };
  return html`<label class="hint pace" title="off: the live view shows each new line long enough to read it">
    <input id="instant" type="checkbox" checked=${!paced} onChange=${flip} /> show new lines at once
    ${pending > 0 ? html`<span id="pending" data-pending=${pending}> (${pending} to come)</span>` : ""}</label>`;
}
