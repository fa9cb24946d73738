// Refusals from the API: every one is an RFC 9457 problem with a stable `code`.

/** A refusal (or no answer at all): `code` is what code checks, `message` what a person reads. */
export class ApiError extends Error {
  constructor(status, problem = {}) {
    super(problem.detail || problem.title || (status ? `HTTP ${status}` : "no answer"));
    this.name = "ApiError";
    /** The HTTP status, or null when no answer came (`code` is then `connection_failed`). */
    this.status = status;
    this.code = problem.code || (status ? "http_error" : "connection_failed");
    this.problem = problem;
    /** For an action: the Idempotency-Key it was sent with, to send the same decision again. */
    this.idempotencyKey = undefined;
    /** For a stale decision (`version_conflict`, `not_your_turn`): the game as it is now, or null. */
    this.game = undefined;
  }

  /** Whether the game moved on before this decision (decide again on `game`). */
  get stale() {
    return this.code === "version_conflict" || this.code === "not_your_turn";
  }
}
