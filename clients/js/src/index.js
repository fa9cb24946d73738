// intrigue-client: the Intrigue game server's v1 API for the browser and Node 20, no build step.

export {Client, newIdempotencyKey, parseRateLimit, pause, RETRY_STATUSES} from "./client.js";
export {Bot, owesDecision} from "./bot.js";
export {ApiError} from "./errors.js";
export {EventStream, StreamEvent, VIEW, parseFrames} from "./stream.js";
