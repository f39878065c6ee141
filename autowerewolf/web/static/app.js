// The page: the lobby (#/) for the server's owner, a game (#/game/ID) for anyone with its link.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, html, ErrorLine } from "/app/api.js";
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
  const match = hash.match(/^#\/game\/([^/?]+)/);
  return match ? { game: decodeURIComponent(match[1]) } : { game: null };
}

function App() {
  const route = useRoute();
  const [me, setMe] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => { api("/aw/me").then(setMe, setError); }, []);
  if (error) {
    return html`<main><h1>AutoWerewolf</h1><${ErrorLine} error=${error} />
      <p>Open the link you were given (the server prints the owner's link when it starts).</p></main>`;
  }
  if (!me) return html`<main><p>Loading…</p></main>`;
  const game = route.game || me.game;
  return html`<main>
    <header class="top"><a href="#/" class="brand">AutoWerewolf</a>
      <span class="who" id="who">${me.kind}${me.seat ? ` · ${me.seat}` : ""}</span></header>
    ${game ? html`<${GamePage} key=${game} gameId=${game} me=${me} />` : html`<${Lobby} me=${me} />`}
  </main>`;
}

render(html`<${App} />`, document.getElementById("root"));
