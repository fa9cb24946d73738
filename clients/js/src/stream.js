// The event stream, read with fetch (EventSource cannot send a token), as an async iterator
// that outlives dropped connections: it remembers the last frame's id and opens the stream
// again with Last-Event-ID, so nothing is lost and nothing comes twice.

import {ApiError} from "./errors.js";

/** The frame type that carries the caller's game view (with `view: true`). */
export const VIEW = "game";

/** One frame: `type` is the event's type (`TurnStarted`, `ChatMessage`...) or `game`. */
export class StreamEvent {
  constructor(id, type, data) {
    this.id = id;
    this.type = type;
    this.data = data;
  }

  get isView() { return this.type === VIEW; }

  get endsGame() { return this.type === "GameEnded" || (this.isView && this.data?.status === "finished"); }
}

/** Split server-sent event text into frames; returns [frames, the unfinished rest]. */
export function parseFrames(buffer) {
  const frames = [];
  let cut;
  while ((cut = buffer.indexOf("\n\n")) >= 0) {
    const block = buffer.slice(0, cut);
    buffer = buffer.slice(cut + 2);
    let type = "message", data = "", id = null, hasData = false;
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") type = value;
      else if (field === "data") { data += (hasData ? "\n" : "") + value; hasData = true; }
      else if (field === "id") id = value;
    }
    if (hasData || id !== null) frames.push({id, type, data, hasData});
  }
  return [frames, buffer];
}

/**
 * Iterate with `for await`; `close()` hangs up. `reconnects` counts the times the stream
 * was opened again, `lastEventId` is where it would resume. Consecutive failed connections
 * are bounded by `maxFailures` (the client's `retries` unless given); a frame received
 * resets the count. It ends once the game is over and the server has sent everything.
 * `onState` hears "live" when a connection opens and "reconnecting" when one drops.
 */
export class EventStream {
  constructor(client, path, {query = {}, lastEventId = null, maxFailures, onState = () => {}} = {}) {
    this.client = client;
    this.path = path;
    this.query = query;
    this.lastEventId = lastEventId;
    this.maxFailures = maxFailures ?? client.retries;
    this.onState = onState;
    this.reconnects = 0;
    this.control = new AbortController();
  }

  get closed() { return this.control.signal.aborted; }

  close() { this.control.abort(); }

  async *[Symbol.asyncIterator]() {
    const signal = this.control.signal;
    let failures = 0;
    let ended = false;
    try {
      while (!this.closed) {
        const headers = {Accept: "text/event-stream", "Cache-Control": "no-cache"};
        if (this.lastEventId !== null) headers["Last-Event-ID"] = this.lastEventId;
        let received = false, dropped = true;
        try {
          const response = await this.client.request("GET", this.path, {query: this.query, headers, raw: true, signal});
          this.onState("live");
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = "";
          for (;;) {
            const {value, done} = await reader.read();
            if (done) { dropped = false; break; }
            let frames;
            [frames, buffer] = parseFrames(buffer + value.replace(/\r\n?/g, "\n"));
            for (const frame of frames) {
              if (!frame.hasData) continue;
              let data;
              try { data = JSON.parse(frame.data); } catch { continue; }  // a frame cut short
              if (frame.id) this.lastEventId = frame.id;
              const event = new StreamEvent(frame.id || null, frame.type, data);
              received = true;
              failures = 0;
              ended = ended || event.endsGame;
              yield event;
              if (this.closed) return;
            }
          }
        } catch (err) {
          if (this.closed) return;
          const unknown = !(err instanceof ApiError) || err.status === null || err.status >= 500 || err.code === "busy";
          if (!unknown) throw err;  // a refusal: asking again would be refused again
        }
        // A drop after the game's end is resumed too: the history may not all have come yet.
        if (this.closed || (ended && !dropped)) return;
        if (!dropped && !received && (await this.client.game(this.gameId)).status === "finished") return;
        if (!received) {
          failures += 1;
          if (failures > this.maxFailures) {
            throw new ApiError(null, {code: "connection_failed", detail: `the event stream ${this.path} kept failing`});
          }
          this.onState("reconnecting");
          await this.client.sleep(this.client.backoffDelay(failures), signal);
        } else {
          this.onState("reconnecting");
        }
        this.reconnects += 1;
      }
    } finally {
      this.control.abort();
    }
  }

  /** The game id of the stream's path. */
  get gameId() { return decodeURIComponent(this.path.split("/")[3]); }
}
