// The game as it happens: frames from the server's event stream for one audience.
import { useEffect, useState } from "preact/hooks";
import { openStream } from "/app/api.js";

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
    const onEvent = (name, data) => {
      if (name === "frame") {
        const frame = JSON.parse(data);
        // Players come only when they changed: a frame without them keeps the last ones.
        if (!frame.players) frame.players = buffer.length ? buffer[buffer.length - 1].players : [];
        // Arrival times, for measuring the latency from a step's checkpoint to the page.
        performance.mark("aw-frame", { detail: { ply: frame.ply ?? null } });
        buffer.push(frame);
        if (!scheduled) {
          scheduled = true;
          requestAnimationFrame(flush);
        }
      } else if (name === "ready") {
        requestAnimationFrame(() => setReady(audience));
      } else if (name === "status") {
        setStatus(JSON.parse(data));
      } else if (name === "end") {
        close();
        setConnection("ended");
      }
    };
    const close = openStream(url, onEvent, setConnection);
    return close;
  }, [gameId, audience]);
  return { frames, status, ready, connection };
}
