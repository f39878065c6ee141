// The lobby's tournament form: the owner pastes a tournament file (docs/evaluation.md) and
// starts its next games; each human contestant's seats get their links, named.
import { useState } from "preact/hooks";
import { post, html, ErrorLine, absolute, useSubmit } from "/app/api.js";

function Started({ made }) {
  const started = made.started.length;
  const counts = `started ${started} game${started === 1 ? "" : "s"}; ` +
    `${made.started_before + started} of ${made.planned} planned games started, ${made.finished} finished.` +
    (made.note ? ` Note: ${made.note}.` : "");
  return html`<div id="tournament-started">
    <p>Tournament <b>${made.tournament}</b>: ${counts} Rate it with${" "}
      <code>autowerewolf report DB --tournament ${made.tournament}</code>.</p>
    ${made.started.map((g) => html`<div class="card" data-game=${g.game}>
      <a href=${`#/game/${encodeURIComponent(g.game)}`}>${g.planned}</a>
      <ul>${Object.entries(g.humans).map(([seat, name]) => html`<li>
        <b>${name}</b> plays ${seat}: <a class="seat-link" href=${g.links[seat]}>${absolute(g.links[seat])}</a></li>`)}
        <li>spectators: <a href=${g.links.spectator}>${absolute(g.links.spectator)}</a></li></ul>
    </div>`)}
  </div>`;
}

export function NewTournament() {
  const [file, setFile] = useState("");
  const [games, setGames] = useState(1);
  const [linkHours, setLinkHours] = useState(168);
  const [made, setMade] = useState(null);
  const { busy, error, submit } = useSubmit(async () =>
    setMade(await post("/aw/tournaments", { file, games: Number(games), link_hours: Number(linkHours) })));

  return html`<details class="card" id="new-tournament"><summary>Play a tournament's games</summary>
    <form onSubmit=${submit}>
      <p class="hint">Paste a tournament file. Its <code>human</code> contestants are people: each of
        their seats gets a link. Starting the same file again starts its next games.</p>
      <textarea id="tournament-file" rows="10" cols="70" placeholder="name: people&#10;board: 8-arena&#10;games: 4&#10;contestants:&#10;  - {name: alice, kind: human}&#10;  - {name: heuristic, kind: heuristic}"
        value=${file} onInput=${(e) => setFile(e.target.value)}></textarea>
      <div class="row">
        <label>Games to start <input id="tournament-games" type="number" min="1" value=${games}
          onInput=${(e) => setGames(e.target.value)} /></label>
        <label title="seat and spectator links stop working after this">Links last (hours)
          <input type="number" min="1" max="2160" value=${linkHours}
            onInput=${(e) => setLinkHours(e.target.value)} /></label>
        <button id="start-tournament" type="submit" disabled=${busy || !file.trim()}>Start games</button>
      </div>
      <${ErrorLine} error=${error} />
    </form>
    ${made && html`<${Started} made=${made} />`}
  </details>`;
}
