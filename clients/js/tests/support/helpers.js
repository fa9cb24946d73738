// What the tests share: the live server they are given (pytest starts it) and a few players.

import {Client} from "../../src/index.js";

/** The server under test: pytest's `intrigue serve`, named by INTRIGUE_URL. */
export const URL = process.env.INTRIGUE_URL;
if (!URL) throw new Error("INTRIGUE_URL names the server under test (tests/integration/sdk/test_js_sdk.py sets it)");

/** A server whose per-player limit is a few requests a second (INTRIGUE_STRICT_URL). */
export const STRICT_URL = process.env.INTRIGUE_STRICT_URL;
if (!STRICT_URL) throw new Error("INTRIGUE_STRICT_URL names a server with a low rate limit (the test sets it)");

let counter = 0;

/** A new player on `url`, its name unique to this run; `options` go to its Client. */
export function register(prefix, options = {}, url = URL) {
  counter += 1;
  return Client.register(url, `${prefix}${process.pid % 10000}-${counter}`, options);
}

/** A fetch that tells `watch(url, init)` about every request before sending it. */
export function watchingFetch(watch) {
  return (url, init) => { watch(url, init); return fetch(url, init); };
}
