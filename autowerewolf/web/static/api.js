// Talking to the server: the token travels in an HttpOnly cookie set by /aw/enter.
import { h } from "preact";
import htm from "htm";

export const html = htm.bind(h);

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

export async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", ...(options.headers || {}) },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body.detail || response.statusText);
  return body;
}

export const post = (path, body) => api(path, { method: "POST", body: JSON.stringify(body) });

// One line per problem, as on the command line.
export const ErrorLine = ({ error }) =>
  error ? html`<p class="error" role="alert">error: ${String(error.message || error)}</p>` : null;

export const absolute = (link) => new URL(link, location.origin).href;
