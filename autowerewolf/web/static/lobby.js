// The lobby: create a game (board, rule flags, seats, seed), start a tournament's games
// (tournament.js), and list the database's games.
import { useEffect, useState } from "preact/hooks";
import { api, post, html, ErrorLine } from "/app/api.js";
import { NewTournament } from "/app/tournament.js";

function seatIds(count) {
  return Array.from({ length: count }, (_, i) => `P${String(i + 1).padStart(2, "0")}`);
}

function Flag({ flag, value, onChange }) {
  const id = `flag-${flag.name}`;
  let input;
  if (flag.type === "bool") {
    input = html`<input id=${id} type="checkbox" checked=${value}
      onChange=${(e) => onChange(e.target.checked)} />`;
  } else if (flag.choices) {
    input = html`<select id=${id} value=${value} onChange=${(e) => onChange(e.target.value)}>
      ${flag.choices.map((c) => html`<option value=${c}>${c}</option>`)}</select>`;
  } else {
    input = html`<input id=${id} type="number" step="any" value=${value}
      onChange=${(e) => onChange(Number(e.target.value))} />`;
  }
  return html`<label class="flag" title=${flag.help}>${input} ${flag.name}</label>`;
}

function NewGame({ choices, onCreated }) {
  const [board, setBoard] = useState("12-A");
  const [seed, setSeed] = useState("");
  const [linkHours, setLinkHours] = useState(168);
  const [deadline, setDeadline] = useState("");
  const [secret, setSecret] = useState("");
  const [defaultKind, setDefaultKind] = useState("random");
  const [seats, setSeats] = useState({});
  const [flags, setFlags] = useState({});
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const boardInfo = choices.boards.find((b) => b.name === board);
  const kinds = choices.kinds;

  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const variants = {};
    for (const flag of choices.variants) {
      if (flag.name in flags && flags[flag.name] !== flag.default) variants[flag.name] = flags[flag.name];
    }
    const chosen = Object.fromEntries(
      Object.entries(seats).filter(([seat, kind]) => kind && seatIds(boardInfo.seats).includes(seat)));
    try {
      const made = await post("/aw/games", {
        board, seed: seed === "" ? null : Number(seed), variants, default: defaultKind, seats: chosen,
        link_hours: Number(linkHours), secret: secret.trim() || null,
        human_deadline_s: deadline === "" ? null : Number(deadline),
      });
      onCreated(made);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return html`<form class="card" id="new-game" onSubmit=${submit}>
    <h2>New game</h2>
    <div class="row">
      <label>Board <select id="board" value=${board} onChange=${(e) => setBoard(e.target.value)}>
        ${choices.boards.map((b) => html`<option value=${b.name}>${b.name} (${b.seats} seats)</option>`)}
      </select></label>
      <label>Seed <input id="seed" type="number" min="0" placeholder="random" value=${seed}
        onInput=${(e) => setSeed(e.target.value)} /></label>
      <label title="seat and spectator links stop working after this">Links last (hours)
        <input id="link-hours" type="number" min="1" max="2160" value=${linkHours}
          onInput=${(e) => setLinkHours(e.target.value)} /></label>
      <label title="a human seat that has not answered by then gets a random legal answer, recorded as a timeout">Answer time (s)
        <input id="human-deadline" type="number" min="1" max="86400" placeholder="no limit" value=${deadline}
          onInput=${(e) => setDeadline(e.target.value)} /></label>
      <label>Every seat <select id="default-kind" value=${defaultKind}
          onChange=${(e) => setDefaultKind(e.target.value)}>
        ${kinds.map((k) => html`<option value=${k.kind}>${k.label}</option>`)}</select></label>
    </div>
    <div class="seats-form">
      ${seatIds(boardInfo.seats).map((seat) => html`<label class="seat-kind">${seat}
        <select id=${`kind-${seat}`} value=${seats[seat] || ""}
            onChange=${(e) => setSeats({ ...seats, [seat]: e.target.value })}>
          <option value="">(every seat)</option>
          ${kinds.map((k) => html`<option value=${k.kind}>${k.label}</option>`)}
        </select></label>`)}
    </div>
    <details><summary>Replay a game</summary>
      <label title="with the same seed, replays that game (autowerewolf inspect GAME --as omniscient shows both)">Secret
        <input id="secret" type="text" placeholder="fresh" value=${secret}
          onInput=${(e) => setSecret(e.target.value)} /></label>
    </details>
    <details><summary>Rule variants</summary>
      <div class="flags">${choices.variants.map((flag) => html`<${Flag} flag=${flag}
        value=${flag.name in flags ? flags[flag.name] : flag.default}
        onChange=${(v) => setFlags({ ...flags, [flag.name]: v })} />`)}</div>
    </details>
    <button id="create" type="submit" disabled=${busy}>Create game</button>
    <${ErrorLine} error=${error} />
  </form>`;
}

// "8 random · 2 model · 1 human": who plays, by kind.
function players(seats) {
  const counts = {};
  for (const kind of Object.values(seats)) counts[kind] = (counts[kind] || 0) + 1;
  return Object.entries(counts).map(([kind, n]) => `${n} ${kind === "llm" ? "model" : kind}`).join(" · ");
}

const when = (iso) => (iso ? new Date(iso).toLocaleString([], { dateStyle: "short", timeStyle: "short" }) : "");

function GameList({ games, owner }) {
  if (!games.length) return html`<p>No games in this database yet.</p>`;
  const newest = [...games].sort((a, b) => (b.started || "").localeCompare(a.started || ""));
  return html`<table class="games" id="games">
    <thead><tr><th>game</th><th>started</th><th>board</th><th>players</th>${owner ? html`<th>seed</th>` : ""}
      <th>status</th><th>day</th><th>winner</th><th>humans</th></tr></thead>
    <tbody>${newest.map((g) => html`<tr data-game=${g.game} data-status=${g.status}>
      <td><a href=${`#/game/${encodeURIComponent(g.game)}`} title=${g.game}>${g.game.length > 12 ? g.game.slice(0, 8) : g.game}</a>${g.server ? "" : " (CLI)"}</td>
      <td class="started">${when(g.started)}</td>
      <td>${g.board}</td><td class="players">${players(g.seats)}</td>${owner ? html`<td class="mono">${g.seed}</td>` : ""}
      <td class="status">${g.status}</td><td>${g.day}</td>
      <td>${g.winner ? `${g.winner}: ${g.win_reason}` : ""}</td>
      <td>${Object.entries(g.seats).filter(([, k]) => k === "human").map(([s]) => s).join(" ")}</td>
    </tr>`)}</tbody></table>`;
}

export function Lobby({ me }) {
  const [choices, setChoices] = useState(null);
  const [games, setGames] = useState([]);
  const [error, setError] = useState(null);
  const load = () => api("/aw/games").then(setGames, setError);
  useEffect(() => {
    if (me.kind === "owner") api("/aw/choices").then(setChoices, setError);
    load();
    const timer = setInterval(load, 3000);
    return () => clearInterval(timer);
  }, []);
  // A game made with warnings (a seed and secret that deal an earlier game again) stays in
  // the lobby until they are read; without any, the page moves to the game.
  const [warned, setWarned] = useState(null);
  const created = (made) => {
    if (made.warnings && made.warnings.length) setWarned(made);
    else location.hash = `#/game/${made.game}`;
  };
  return html`<section class="lobby">
    <${ErrorLine} error=${error} />
    ${warned && html`<div class="card warnings" id="warnings" role="status">
      ${warned.warnings.map((w) => html`<p class="warning">warning: ${w}</p>`)}
      <a id="open-warned" href=${`#/game/${warned.game}`}>Open the game</a></div>`}
    ${choices && html`<${NewGame} choices=${choices} onCreated=${created} />`}
    ${choices && html`<${NewTournament} />`}
    <div class="card"><h2>Games</h2><${GameList} games=${games} owner=${me.kind === "owner"} /></div>
  </section>`;
}
