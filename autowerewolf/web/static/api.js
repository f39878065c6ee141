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

// An event stream, read with fetch so that it names its session in the header like every
// other request (EventSource sends no headers, and an address must never name a session).
// As EventSource does, it reconnects from the last event id it saw when the connection
// drops, and gives up on a refusal. `onEvent(name, data)` for each message, `onConnection`
// with live, reconnecting or closed; the returned function closes the stream.
const RETRY_MS = 3000;

function sseLines(onEvent, onId) {
  let name = "message";
  let data = [];
  return (line) => {
    if (line === "") {
      if (data.length) onEvent(name, data.join("\n"));
      name = "message";
      data = [];
      return;
    }
    if (line.startsWith(":")) return; // a comment: the server's keep-alive ping
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
    else if (field === "id") onId(value);
  };
}

export function openStream(path, onEvent, onConnection) {
  const aborter = new AbortController();
  let closed = false;
  let lastId = "";
  const close = () => {
    closed = true;
    aborter.abort();
  };
  const read = async (response) => {
    const line = sseLines(onEvent, (id) => { lastId = id; });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    while (!closed) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      const held = buffer.endsWith("\r") ? 1 : 0; // a "\r\n" may be split between chunks
      const lines = buffer.slice(0, buffer.length - held).split(/\r\n|\n|\r/);
      buffer = lines.pop() + buffer.slice(buffer.length - held);
      for (const one of lines) if (!closed) line(one);
    }
  };
  (async () => {
    while (!closed) {
      try {
        const headers = { Accept: "text/event-stream", "X-AW-Session": currentSession() };
        if (lastId) headers["Last-Event-ID"] = lastId;
        const response = await fetch(path, { headers, credentials: "same-origin", signal: aborter.signal });
        if (!response.ok) {
          onConnection("closed");
          return;
        }
        onConnection("live");
        await read(response);
      } catch (error) {
        if (closed) return;
      }
      if (closed) return;
      onConnection("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  })();
  return close;
}

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
