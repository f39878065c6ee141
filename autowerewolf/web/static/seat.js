// A human seat: its role and private facts, and the decision it is asked (legal options,
// speech or message box, the error of an illegal answer).
import { useEffect, useState } from "preact/hooks";
import { post, html, ErrorLine, useSubmit } from "/app/api.js";

export function MyStanding({ me }) {
  if (!me) return null;
  const facts = [];
  if (me.teammates.length) facts.push(`fellow wolves: ${me.teammates.join(", ")}`);
  if (me.cure_available !== null) facts.push(`cure ${me.cure_available ? "available" : "used"}`);
  if (me.poison_available !== null) facts.push(`poison ${me.poison_available ? "available" : "used"}`);
  if (me.last_guarded) facts.push(`last guarded ${me.last_guarded}`);
  if (me.attacked) facts.push(`night ${me.attacked.night}: the wolves attacked ${me.attacked.seat || "nobody"}`);
  for (const c of me.checks || []) facts.push(`night ${c.night}: you checked ${c.seat}: ${c.result}`);
  if (me.duel_used !== null && me.duel_used !== undefined) facts.push(`duel ${me.duel_used ? "used" : "available"}`);
  return html`<div class="card me" id="me">
    <h3>${me.seat} · ${me.name}</h3>
    <p>You are the <b id="my-role">${me.role}</b> (${me.camp}).</p>
    ${me.death && html`<p class="death" id="death-notice">${me.death}</p>`}
    ${facts.map((f) => html`<p class="fact">${f}</p>`)}
  </div>`;
}

// The newest lines of the transcript, inside the question: what must be answered stays
// beside the question on any screen.
function Recent({ lines }) {
  if (!lines.length) return null;
  return html`<ol class="recent" id="recent" title="what just happened">
    ${lines.map((e) => html`<li class=${e.audience === "public" ? "" : "private"} data-kind=${e.kind}>${e.line}</li>`)}</ol>`;
}

// The answer time left, counted down from what the server said when the page loaded the
// question; at zero the server's fallback answers for the seat.
const TICK_MS = 250;
const LOW_S = 10;

function Clock({ leftS, onExpired }) {
  const [end] = useState(() => performance.now() + leftS * 1000);
  const [now, setNow] = useState(performance.now());
  const left = Math.max(0, Math.ceil((end - now) / 1000));
  useEffect(() => {
    if (left === 0) { onExpired(); return undefined; }
    const timer = setTimeout(() => setNow(performance.now()), TICK_MS);
    return () => clearTimeout(timer);
  }, [now]);
  if (left === 0) {
    return html`<p class="clock low" id="clock" data-left="0">Time is up: your seat's fallback answers for you.</p>`;
  }
  const shown = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  return html`<p class=${`clock${left <= LOW_S ? " low" : ""}`} id="clock" data-left=${left}>${shown} left to answer</p>`;
}

function DecisionForm({ gameId, decision, recent, onAnswered, onPassed, onExpired }) {
  const options = decision.options.map((o) => o.option);
  const [option, setOption] = useState(options.length === 1 ? options[0] : null);
  const [text, setText] = useState("");
  const speech = decision.text === "speech";
  // Typing a speech is enough: it picks "speak" when nothing else was chosen.
  const type = (value) => {
    setText(value);
    if (option === null && options.includes("speak")) setOption("speak");
  };
  const empty = speech && option === "speak" && !text.trim();
  // The answer names its question: a tab left on an earlier one is refused (409).
  const { busy, error, submit } = useSubmit(async () => {
    try {
      onAnswered(await post(`/aw/games/${encodeURIComponent(gameId)}/answer`, { key: decision.key, option, text }), decision);
    } catch (failure) {
      if (failure.status === 409) onPassed(failure);
      throw failure;
    }
  });
  return html`<form class="card decision" id="decision" data-key=${decision.key} onSubmit=${submit}>
    <h3>Your decision</h3>
    ${decision.time_left_s !== null && decision.time_left_s !== undefined
      && html`<${Clock} leftS=${decision.time_left_s} onExpired=${onExpired} />`}
    <${Recent} lines=${recent} />
    <p class="question">${decision.question}</p>
    ${decision.error && html`<p class="error" id="decision-error">error: ${decision.error}</p>`}
    <div class="options">${decision.options.map((o) => html`<label class="option" title=${o.help || ""}>
      <input type="radio" name="option" value=${o.option} checked=${option === o.option}
        onChange=${(e) => setOption(e.target.value)} />
      ${o.option}${o.label ? ` (${o.label})` : ""}${o.help && html`<span class="hint option-help"> — ${o.help}</span>`}</label>`)}</div>
    ${decision.text && html`<label class="speech">${decision.text === "speech" ? "Your speech" : "Message to your fellow wolves"}
      <span class="hint"> (${text.length} of ${decision.max_text} characters)</span>
      <textarea id="speech" rows="3" value=${text} onInput=${(e) => type(e.target.value)} /></label>`}
    <button id="send" type="submit" disabled=${busy || option === null || empty}>Send</button>
    ${empty && html`<span class="hint" id="speech-hint"> write your speech to send it</span>`}
    <${ErrorLine} error=${error} />
  </form>`;
}

const TITLE = document.title;
// A tone for each new question is on unless the seat turned it off: a person who looked
// away must hear that it is their turn. Where the browser allows notifications, a hidden
// tab shows one too.
const soundOn = () => localStorage.getItem("aw-sound") !== "off";
const canNotify = () => typeof Notification !== "undefined" && Notification.permission === "granted";

// A new question says so in the tab's title and, if the seat wants, with a short tone.
function announce(decision) {
  document.title = decision ? `● Your turn · ${TITLE}` : TITLE;
  if (!decision || !soundOn()) return;
  if (document.hidden && canNotify()) new Notification("AutoWerewolf: your turn", { body: decision.question.split("\n")[0] });
  const audio = new AudioContext();
  const tone = audio.createOscillator();
  tone.frequency.value = 660;
  tone.connect(audio.destination);
  tone.start();
  tone.onended = () => audio.close(); // one context per tone: close it, browsers cap them
  tone.stop(audio.currentTime + 0.15);
}

function SoundToggle() {
  const [on, setOn] = useState(soundOn());
  const flip = (e) => {
    localStorage.setItem("aw-sound", e.target.checked ? "on" : "off");
    setOn(e.target.checked);
  };
  // Asking needs the person's click: a button, shown while the browser has not been asked.
  const [asked, setAsked] = useState(typeof Notification === "undefined" || Notification.permission !== "default");
  const ask = () => Notification.requestPermission().finally(() => setAsked(true));
  return html`<span class="hint sound"><label><input id="sound" type="checkbox" checked=${on}
    onChange=${flip} /> a tone for each question</label>
    ${on && !asked && html` <button id="notify" type="button" onClick=${ask}
      title="a notification when it is your turn and this tab is hidden">notify me too</button>`}</span>`;
}

export function SeatPanel({ gameId, turn, asked, recent, ending, death }) {
  const [decision, setDecision] = useState(null);
  const [note, setNote] = useState(null);
  const [error, setError] = useState(null);
  const [lapsed, setLapsed] = useState(null); // the key of a question whose time ran out
  useEffect(() => { announce(decision); }, [decision && decision.key, decision && decision.error]);
  useEffect(() => () => { document.title = TITLE; }, []);
  const show = (question) => {
    setDecision(question);
    if (question) setNote(null);
  };
  const decisionPath = `/aw/games/${encodeURIComponent(gameId)}/decision`;
  // The stream's status names each question this seat is asked (`turn`) and brings it
  // (`asked`): it is shown as soon as the server has it, without waiting for a request.
  // A GET changes nothing, so the POST beside it, naming the question, starts the seat's
  // answer time (a question passed meanwhile is the stream's to tell).
  useEffect(() => {
    show(asked || null);
    if (asked) post(decisionPath, { key: asked.key }).catch(() => {});
  }, [gameId, turn]);
  // A refused answer asks the server what is asked now (a POST: the page shows it now).
  const load = () => post(decisionPath, {}).then((body) => show(body.decision), setError);
  // A note about an answer means nothing once the seat has died or the game has ended.
  useEffect(() => { if (death || ending) { setNote(null); setLapsed(null); } }, [death, ending]);
  const passed = (failure) => {
    setError(failure);
    load();
  };
  // The next question may be on the page before the answer's reply: only the question
  // answered leaves it.
  const answered = (result, question) => {
    setLapsed(null);
    setDecision((shown) => (shown === question ? null : shown));
    setNote(result.resumed ? "Answer sent." : "Answer sent; waiting for the other seats asked.");
  };
  // Once the server has moved past a question whose time ran out, its fallback answered.
  const timedOut = lapsed !== null && !(decision && decision.key === lapsed);
  return html`<div class="seat-panel" id="seat-panel">
    <${SoundToggle} />
    <${ErrorLine} error=${error} />
    ${timedOut && html`<p class="clock low" id="timed-out">Your time ran out: your seat's fallback answered for you.</p>`}
    ${decision
      ? html`<${DecisionForm} key=${`${decision.key}|${decision.error}`} gameId=${gameId}
          decision=${decision} recent=${recent} onAnswered=${answered} onPassed=${passed}
          onExpired=${() => setLapsed(decision.key)} />`
      : ending
        ? html`<p class="ending" id="ending">${ending}</p>`
        : html`<p class="waiting" id="no-decision">${note || death || "Nothing to decide right now."}</p>`}
  </div>`;
}
