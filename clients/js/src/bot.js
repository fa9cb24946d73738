// A base class for bots: write choose(view, legalActions), call play(gameId).

/**
 * Whether the seat owes an answer now: the game is on, awaits this seat, and offers it
 * actions. A seat that may revise a choice it already sealed has legal actions too, but is
 * not awaited: its decision is answered.
 */
export function owesDecision(view) {
  return view.status === "active" && view.legal_actions.length > 0 && view.seat !== null
    && view.awaiting.includes(view.seat);
}

/**
 * Plays one seat: follows the game's stream and acts once for each decision the seat owes.
 * A subclass writes `choose` (it may be async); it may also override `onEvent` to watch the
 * table. The bot needs no rules of its own: the view lists every legal action, ready to post.
 */
export class Bot {
  constructor(client) {
    this.client = client;
  }

  /** The action to play now: one of `legalActions` (`view.view` is what the seat sees). */
  choose(view, legalActions) {  // eslint-disable-line no-unused-vars
    throw new Error("a Bot subclass writes choose(view, legalActions)");
  }

  /** Called with each event of the game's feed, in order (table talk included). */
  onEvent(event) {}  // eslint-disable-line no-unused-vars

  /**
   * Play the seat this player holds in `gameId` until the game ends; resolve to the final
   * view. Each decision is posted once with If-Match (the version it was made on) and its
   * own Idempotency-Key, kept across retries. If someone moved first, the bot decides again
   * on the fresh view the error carries.
   */
  async play(gameId) {
    let latest = null, decidedOn = null, historySeen = false;
    const stream = this.client.stream(gameId, {view: true});
    for await (const event of stream) {
      if (!event.isView) {
        historySeen = true;
        await this.onEvent(event);
        continue;
      }
      // The stream's opening view: the history follows, then the same view again.
      if (!historySeen) continue;
      const view = event.data;
      if (latest !== null && view.version < latest.version) continue;  // behind an action's answer
      latest = view;
      while (owesDecision(latest) && latest.version !== decidedOn) {
        decidedOn = latest.version;
        const action = await this.choose(latest, latest.legal_actions);
        try {
          latest = (await this.client.act(gameId, action, {ifMatch: decidedOn})).game;
        } catch (err) {
          if (err.stale) {
            if (!err.game) break;  // the stream will bring the fresh view
            latest = err.game;
          } else if (err.code === "game_over") {
            stream.close();
            return this.client.game(gameId);
          } else {
            stream.close();
            throw err;
          }
        }
      }
      if (latest.status === "finished") {
        stream.close();
        return latest;
      }
    }
    return this.client.game(gameId);
  }
}
