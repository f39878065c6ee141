// Talking to the server. Each link opened in this browser is a session whose token sits in
// an HttpOnly cookie of its own; this tab names the session it uses (kept per tab in
// sessionStorage) in the X-AW-Session header, which no page of another site can send.
import { h } from "preact";
import { useState } from "preact/hooks";
import htm from "htm";

export const html = htm.bind(h);
const SESSION_KEY = "aw-session";

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

export const currentSession = () => sessionStorage.getItem(SESSION_KEY) || "";
export const useSession = (session) => sessionStorage.setItem(SESSION_KEY, session);

export async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    credentials: "same-origin",
    headers: {
      "Content-Type": "application/json",
      "X-AW-Session": currentSession(),
      ...(options.headers || {}),
    },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body.detail || response.statusText);
  return body;
}

export const post = (path, body) => api(path, { method: "POST", body: JSON.stringify(body) });

// An event stream cannot send headers: it names its session in the address (reads only).
export const streamUrl = (path) =>
  `${path}${path.includes("?") ? "&" : "?"}session=${encodeURIComponent(currentSession())}`;

// One line per problem, as on the command line.
export const ErrorLine = ({ error }) =>
  error ? html`<p class="error" role="alert">error: ${String(error.message || error)}</p>` : null;

export const absolute = (link) => new URL(link, location.origin).href;

// A form's submission: busy while `action` runs, and its error, if any, for an ErrorLine.
export function useSubmit(action) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit };
}
