// Drill-down from a decision to its prompt, raw answer, parsed choice, reasoning (god view
// only: the server leaves it out for anyone else), tokens and latency.
import { useEffect, useState } from "preact/hooks";
import { api, html, ErrorLine } from "/app/api.js";

const Field = ({ name, children }) => html`<div class="field"><h4>${name}</h4>${children}</div>`;

export function DrillDown({ gameId, audience, refNo, onClose }) {
  const [detail, setDetail] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setDetail(null);
    api(`/aw/games/${encodeURIComponent(gameId)}/records/${refNo}?audience=${encodeURIComponent(audience)}`)
      .then(setDetail, setError);
  }, [gameId, audience, refNo]);
  return html`<aside class="card drill" id="drill">
    <button class="close" onClick=${onClose} aria-label="close">×</button>
    <h3>Decision</h3>
    <${ErrorLine} error=${error} />
    ${detail && html`<div>
      <p class="facts"><b>${detail.seat}</b> · ${detail.key} · ${detail.player}${detail.model ? ` (${detail.model})` : ""}</p>
      <p class="facts" id="drill-choice">chose <b>${detail.option}</b> of ${detail.options.join(", ")}
        ${detail.valid ? "" : " · invalid answer"}${detail.fallback ? " · random fallback" : ""}
        ${detail.retries ? ` · ${detail.retries} retries` : ""}</p>
      <p class="facts" id="drill-usage">tokens in ${detail.tokens_in ?? "–"} · out ${detail.tokens_out ?? "–"}
        · cached ${detail.cached_tokens ?? "–"} · ${detail.latency_s.toFixed(2)} s</p>
      ${detail.text && html`<${Field} name="text"><pre>${detail.text}</pre><//>`}
      ${detail.error && html`<${Field} name="error"><pre>${detail.error}</pre><//>`}
      <${Field} name="prompt (new part)"><pre id="drill-prompt">${detail.prompt ?? "(no prompt: not a model seat)"}</pre><//>
      ${"raw" in detail && html`<${Field} name="raw answer"><pre id="drill-raw">${detail.raw ?? "–"}</pre><//>`}
      ${"reasoning" in detail && html`<${Field} name="reasoning (private)"><pre id="drill-reasoning">${detail.reasoning ?? "–"}</pre><//>`}
      ${detail.data && html`<${Field} name="structured output"><pre>${JSON.stringify(detail.data, null, 1)}</pre><//>`}
    </div>`}
  </aside>`;
}
