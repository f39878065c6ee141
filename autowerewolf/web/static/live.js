// The game as it happens: frames from the server's event stream for one audience.
import { useEffect, useState } from "preact/hooks";
import { streamUrl } from "/app/api.js";

export function useLive(gameId, audience) {
  const [frames, setFrames] = useState([]);
  const [status, setStatus] = useState(null);
  const [ready, setReady] = useState(null); // the audience whose backlog is on the page
  const [connection, setConnection] = useState("connecting");
  useEffect(() => {
    if (!audience) return undefined;
    setFrames([]);
    setReady(null);
    setStatus(null);
    const buffer = [];
    let scheduled = false;
    // A backlog arrives as a burst: render once per animation frame, not once per message.
    const flush = () => {
      scheduled = false;
      setFrames(buffer.slice());
    };
    const url = `/aw/games/${encodeURIComponent(gameId)}/events?audience=${encodeURIComponent(audience)}`;
    const source = new EventSource(streamUrl(url));
    source.addEventListener("frame", (message) => {
      const frame = JSON.parse(message.data);
      // Players come only when they changed: a frame without them keeps the last ones.
      if (!frame.players) frame.players = buffer.length ? buffer[buffer.length - 1].players : [];
      // Arrival times, for measuring the latency from a step's checkpoint to the page.
      performance.mark("aw-frame", { detail: { ply: frame.ply ?? null } });
      buffer.push(frame);
      if (!scheduled) {
        scheduled = true;
        requestAnimationFrame(flush);
      }
    });
    source.addEventListener("ready", () => requestAnimationFrame(() => setReady(audience)));
    source.addEventListener("status", (message) => setStatus(JSON.parse(message.data)));
    source.addEventListener("end", () => {
      source.close();
      setConnection("ended");
    });
    source.onopen = () => setConnection("live");
    source.onerror = () => setConnection(source.readyState === EventSource.CLOSED ? "closed" : "reconnecting");
    return () => source.close();
  }, [gameId, audience]);
  return { frames, status, ready, connection };
}
