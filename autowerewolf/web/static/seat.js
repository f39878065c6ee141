// A human seat: its role and private facts, and the decision it is asked (legal options,
// speech or message box, the error of an illegal answer).
import { useEffect, useState } from "preact/hooks";
import { api, post, html, ErrorLine } from "/app/api.js";

export function MyStanding({ me }) {
  if (!me) return null;
  const facts = [];
  if (me.teammates.length) facts.push(`fellow wolves: ${me.teammates.join(", ")}`);
  if (me.cure_available !== null) facts.push(`cure ${me.cure_available ? "available" : "used"}`);
  if (me.poison_available !== null) facts.push(`poison ${me.poison_available ? "available" : "used"}`);
  if (me.last_guarded) facts.push(`last guarded ${me.last_guarded}`);
  return html`<div class="card me" id="me">
    <h3>${me.seat} · ${me.name}</h3>
    <p>You are the <b id="my-role">${me.role}</b> (${me.camp}).</p>
    ${facts.map((f) => html`<p class="fact">${f}</p>`)}
  </div>`;
}

function DecisionForm({ gameId, decision, onAnswered }) {
  const [option, setOption] = useState(null);
  const [text, setText] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onAnswered(await post(`/aw/games/${encodeURIComponent(gameId)}/answer`, { option, text }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="card decision" id="decision" data-key=${decision.key} onSubmit=${submit}>
    <h3>Your decision</h3>
    <p class="question">${decision.question}</p>
    ${decision.error && html`<p class="error" id="decision-error">error: ${decision.error}</p>`}
    <div class="options">${decision.options.map((o) => html`<label class="option">
      <input type="radio" name="option" value=${o.option} checked=${option === o.option}
        onChange=${(e) => setOption(e.target.value)} />
      ${o.option}${o.label ? ` (${o.label})` : ""}</label>`)}</div>
    ${decision.text && html`<label class="speech">${decision.text === "speech" ? "Your speech" : "Message to your fellow wolves"}
      <span class="hint"> (${text.length} of ${decision.max_text} characters)</span>
      <textarea id="speech" rows="3" value=${text} onInput=${(e) => setText(e.target.value)} /></label>`}
    <button id="send" type="submit" disabled=${busy || option === null}>Send</button>
    <${ErrorLine} error=${error} />
  </form>`;
}

export function SeatPanel({ gameId, turn }) {
  const [decision, setDecision] = useState(null);
  const [note, setNote] = useState(null);
  const [error, setError] = useState(null);
  const load = () =>
    api(`/aw/games/${encodeURIComponent(gameId)}/decision`).then((body) => {
      setDecision(body.decision);
      if (body.decision) setNote(null);
    }, setError);
  useEffect(() => { load(); }, [gameId, turn]);
  const answered = (result) => {
    setDecision(null);
    setNote(result.resumed ? "Answer sent." : "Answer sent; waiting for the other seats asked.");
  };
  return html`<div class="seat-panel">
    <${ErrorLine} error=${error} />
    ${decision
      ? html`<${DecisionForm} key=${`${decision.key}|${decision.error}`} gameId=${gameId}
          decision=${decision} onAnswered=${answered} />`
      : html`<p class="waiting" id="no-decision">${note || "Nothing to decide right now."}</p>`}
  </div>`;
}
