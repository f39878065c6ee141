// One game: live or replayed, from one audience's point of view.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, post, html, ErrorLine, absolute } from "/app/api.js";
import { useLive } from "/app/live.js";
import { Reveal, SeatCircle, Transcript, VoteGrid, flatten, phaseAt, playersAt, rowsUpTo } from "/app/table.js";
import { DrillDown } from "/app/drill.js";
import { MyStanding, SeatPanel } from "/app/seat.js";
import { PaceSwitch, isPaced, useReveal } from "/app/pace.js";
import { NightSummary, Timeline } from "/app/story.js";

const PLAY_MS = 250;
const RECENT_LINES = 3; // the transcript's newest lines shown inside a question
const DIVIDER_KINDS = new Set(["night_start", "day_start"]);

function Links({ gameId, links }) {
  const [shown, setShown] = useState(links || {});
  const [error, setError] = useState(null);
  useEffect(() => setShown(links || {}), [links]);
  if (!Object.keys(shown).length) return null;
  const revoke = (who) =>
    post(`/aw/games/${encodeURIComponent(gameId)}/links/${encodeURIComponent(who)}/revoke`, {})
      .then((made) => setShown({ ...shown, [who]: made.link }), setError);
  return html`<details class="card links" id="links"><summary>Links to hand out</summary>
    <ul>${Object.entries(shown).map(([who, link]) => html`<li>
      <b>${who}</b> <a id=${`link-${who}`} href=${link}>${absolute(link)}</a>
      <button id=${`revoke-${who}`} onClick=${() => revoke(who)}
        title="this link stops working; a new one replaces it">revoke</button></li>`)}</ul>
    <p class="hint">A seat's link plays that seat; the spectator's link shows the public view.
      Keep links private: anyone holding one can use it until it expires or you revoke it.</p>
    <${ErrorLine} error=${error} />
  </details>`;
}

function Controls({ position, total, onMove, playing, onPlay, onBranch }) {
  const live = position === null;
  const at = live ? total : position + 1;
  return html`<div class="controls" id="controls">
    <button id="to-start" onClick=${() => onMove(0)} title="first event">« start</button>
    <button id="step-back" onClick=${() => onMove(Math.max(0, at - 2))} title="previous event">◀</button>
    <button id="play" onClick=${onPlay}>${playing ? "pause" : "play"}</button>
    <button id="step-forward" onClick=${() => onMove(Math.min(total - 1, at))} title="next event">▶</button>
    <button id="to-live" onClick=${() => onMove(null)} title="latest event">latest »</button>
    <input id="scrubber" type="range" min="0" max=${Math.max(total - 1, 0)} value=${at - 1}
      onInput=${(e) => onMove(Number(e.target.value))} />
    <span id="position">${live ? `latest (${total} events)` : `event ${at} of ${total}`}</span>
    ${onBranch && html`<button id="branch" onClick=${onBranch}
      title="a new game from this step (the command line's fork)">branch from here</button>`}
  </div>`;
}

function statusText(status, connection) {
  if (!status) return connection;
  if (status.waiting_for && status.waiting_for.length) return `waiting for ${status.waiting_for.join(", ")}`;
  return status.status;
}

export function GamePage({ gameId, me }) {
  const [header, setHeader] = useState(null);
  const [audience, setAudience] = useState(null);
  const [error, setError] = useState(null);
  const [position, setPosition] = useState(null); // null: follow the game
  const [playing, setPlaying] = useState(false);
  const [drill, setDrill] = useState(null);
  const { frames, status, ready, connection } = useLive(gameId, audience);
  const marked = useRef(false);

  // The audience last asked for, and which header request is the latest: a reload that
  // answers after a newer one (a status change just before the person chose an audience)
  // must not put the older audience back.
  const wanted = useRef(null);
  const asked = useRef(0);
  const loadHeader = (chosen) => {
    wanted.current = chosen;
    const request = ++asked.current;
    const latest = () => request === asked.current;
    return api(`/aw/games/${encodeURIComponent(gameId)}${chosen ? `?audience=${encodeURIComponent(chosen)}` : ""}`)
      .then((body) => { if (latest()) { setHeader(body); setAudience(body.audience); } },
        (failure) => { if (latest()) setError(failure); });
  };
  useEffect(() => { loadHeader(null); }, [gameId]);
  useEffect(() => { if (status && audience) loadHeader(wanted.current ?? audience); }, [status]);
  useEffect(() => {
    if (ready && !marked.current) {
      marked.current = true;
      performance.mark("aw-ready-rendered"); // the backlog is on the page
    }
  }, [ready, frames]);

  const events = useMemo(() => flatten(frames), [frames]);
  const total = events.length;
  // A seat's and a spectator's live view is paced; the owner has the replay controls.
  const [paced, setPaced] = useState(isPaced());
  const pacing = me.kind !== "owner" && paced;
  const revealed = useReveal(events, ready, pacing, Boolean(status && status.turn));
  useEffect(() => {
    if (!playing) return undefined;
    const timer = setInterval(() => setPosition((p) => {
      const next = p === null ? total - 1 : p + 1;
      if (next >= total - 1) { setPlaying(false); return null; }
      return next;
    }), PLAY_MS);
    return () => clearInterval(timer);
  }, [playing, total]);

  if (error) return html`<${ErrorLine} error=${error} />`;
  if (!header) return html`<p>Loading…</p>`;
  const shown = position === null ? revealed : position + 1;
  const current = shown ? events[shown - 1] : null;
  const frame = current ? frames[current.frame] : frames[frames.length - 1];
  // The table as of the event shown: a frame's players are those after its last event.
  const players = playersAt(frames, events, shown);
  const focus = new Set(current ? [current.event.actor, current.event.target, ...current.event.targets] : []);
  const visible = events.slice(0, shown).map((e) => e.event);
  const rows = rowsUpTo(frames, shown);
  const atEnd = shown === total;
  // The seat whose speech is the newest line shown speaks now.
  const speaking = current && current.event.kind === "speech" ? current.event.actor : null;
  const over = frame && frame.over && atEnd;
  // A seat learns of its death when the transcript shown reaches it, paced or not.
  const mine = header.me && players.find((p) => p.seat === header.me.seat);
  const death = header.me && header.me.death && !(mine && mine.alive) ? header.me.death : null;
  const phase = phaseAt(visible);
  const centre = html`<div id="centre">
    <div class="day" id="phase">${phase.night ? "Night" : "Day"} ${phase.number || (frame ? frame.day : 1)}</div>
    ${phase.night && !over ? html`<div class="calling" id="calling">the moderator calls the night roles</div>` : ""}
    ${over ? html`<div class="winner" id="winner">${frame.ending || ""}</div>` : ""}
  </div>`;
  // A seat's and a spectator's page replays a game once it is over, not while it is live.
  const live = me.kind !== "owner" && !(frames.length && frames[frames.length - 1].over);
  const branch = audience === "god" && position !== null && current && frame && frame.ply !== undefined
    ? () => post(`/aw/games/${encodeURIComponent(gameId)}/fork`, { ply: frame.ply })
      .then((made) => { location.hash = `#/game/${made.game}`; }, setError)
    : null;
  const changeAudience = (value) => {
    setPosition(null);
    setDrill(null);
    loadHeader(value);
  };

  return html`<section class=${`game ${phase.night && !over ? "night" : "daytime"}`} data-ready=${ready || ""}
      data-phase=${phase.night ? "night" : "day"}>
    <div class="game-head">
      <h2>Game <span class="mono">${gameId}</span> · ${header.board}</h2>
      <span class="status" id="status" data-status=${status ? status.status : ""}>${statusText(status, connection)}</span>
      <label>Audience <select id="audience" value=${audience} onChange=${(e) => changeAudience(e.target.value)}>
        ${header.audiences.map((a) => html`<option value=${a}>${a === "god" ? "god view" : a}</option>`)}
      </select></label>
      ${me.kind !== "owner" && html`<${PaceSwitch} paced=${paced} onChange=${setPaced} pending=${total - revealed} />`}
    </div>
    <${Timeline} rows=${rows} />
    <${Links} gameId=${gameId} links=${header.links} />
    ${me.kind === "owner" && header.server && status && status.status === "stopped" && html`<p class="card">
      This game stopped before its end (its server was stopped).
      <button id="resume" onClick=${() => post(`/aw/games/${encodeURIComponent(gameId)}/resume`, {}).catch(setError)}>Resume it</button></p>`}
    ${live ? "" : html`<${Controls} position=${position} total=${total} playing=${playing}
      onMove=${(p) => { setPlaying(false); setPosition(p === null || p >= total - 1 ? null : p); }}
      onPlay=${() => { if (!playing && position === null) setPosition(0); setPlaying(!playing); }}
      onBranch=${branch} />`}
    ${me.kind === "seat" && html`<${SeatPanel} gameId=${gameId} turn=${status ? status.turn : null}
      asked=${status ? status.decision : null}
      recent=${visible.filter((e) => !DIVIDER_KINDS.has(e.kind)).slice(-RECENT_LINES)}
      ending=${over ? frame.ending : null} death=${death} />`}
    <div class="board">
      <div class="left">
        <${SeatCircle} players=${players} focus=${focus} speaking=${speaking} centre=${centre} />
        <${MyStanding} me=${header.me && { ...header.me, death }} />
        ${over && html`<${Reveal} lines=${frame.reveal || []} />`}
        <${NightSummary} events=${visible} />
        <${VoteGrid} events=${visible} players=${players} />
      </div>
      <div class="right">
        <${Transcript} rows=${rows} onRecord=${setDrill} />
        ${drill !== null && html`<${DrillDown} gameId=${gameId} audience=${audience} refNo=${drill}
          onClose=${() => setDrill(null)} />`}
      </div>
    </div>
  </section>`;
}
