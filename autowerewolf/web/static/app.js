// The page: the lobby (#/) for the server's owner, a game (#/game/ID) for anyone with its
// link. A link (#/enter/TOKEN) starts a session: its token goes to the server in a request
// body, never in an address the server sees, and leaves this tab's address at once.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, post, html, ErrorLine, currentSession, useSession } from "/app/api.js";
import { Lobby } from "/app/lobby.js";
import { GamePage } from "/app/game.js";

function useRoute() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener("hashchange", onChange);
    // Effects run after the first paint: an address changed before then fired no event here.
    onChange();
    return () => removeEventListener("hashchange", onChange);
  }, []);
  const entering = hash.match(/^#\/enter\/([^/?]+)/);
  if (entering) return { enter: decodeURIComponent(entering[1]), game: null };
  const match = hash.match(/^#\/game\/([^/?]+)/);
  return { enter: null, game: match ? decodeURIComponent(match[1]) : null };
}

// A tab without a session of its own takes the one that fits the address best.
function pick(sessions, game) {
  const forGame = sessions.filter((s) => s.game === game);
  return forGame.find((s) => s.kind === "seat") || forGame[0]
    || sessions.find((s) => s.kind === "owner") || sessions[0] || null;
}

function Sessions({ sessions, me }) {
  if (sessions.length < 2) return html`<span class="who" id="who">${me.kind}${me.seat ? ` · ${me.seat}` : ""}</span>`;
  const label = (s) => (s.kind === "owner" ? "owner" : `${s.kind}${s.seat ? ` ${s.seat}` : ""} · ${s.game.slice(0, 8)}`);
  const choose = (session) => {
    useSession(session);
    const chosen = sessions.find((s) => s.session === session);
    location.hash = chosen && chosen.game ? `#/game/${chosen.game}` : "#/";
    location.reload();
  };
  return html`<label class="who" id="who">as <select id="session" value=${me.session}
      onChange=${(e) => choose(e.target.value)}>
    ${sessions.map((s) => html`<option value=${s.session}>${label(s)}</option>`)}</select></label>`;
}

function App() {
  const route = useRoute();
  const [me, setMe] = useState(null);
  const [sessions, setSessions] = useState([]);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (route.enter) {
      post("/aw/session", { token: route.enter }).then((started) => {
        useSession(started.session);
        location.replace(started.game ? `#/game/${started.game}` : "#/");
      }, setError);
      return;
    }
    api("/aw/sessions").then((held) => {
      setSessions(held);
      const mine = held.find((s) => s.session === currentSession()) || pick(held, route.game);
      if (!mine) throw new Error("this browser holds no link of this server");
      useSession(mine.session);
      setMe(mine);
    }).catch(setError);
  }, [route.enter]);
  if (error) {
    return html`<main><h1>AutoWerewolf</h1><${ErrorLine} error=${error} />
      <p>Open the link you were given (the server prints the owner's link when it starts).</p></main>`;
  }
  if (!me) return html`<main><p>Loading…</p></main>`;
  const game = route.game || me.game;
  return html`<main>
    <header class="top"><a href="#/" class="brand">AutoWerewolf</a>
      <${Sessions} sessions=${sessions} me=${me} /></header>
    ${game ? html`<${GamePage} key=${game} gameId=${game} me=${me} />` : html`<${Lobby} me=${me} />`}
  </main>`;
}

render(html`<${App} />`, document.getElementById("root"));
