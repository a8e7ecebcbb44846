/** @module The clock OAuth tokens' lifetimes are read against: the wall clock, which a test may move. */

/**
 * The current time for token expiry, milliseconds since the epoch: when the client refreshes its access token,
 * and when the resource server finds a token expired (or not valid yet). `Date.now` unless replaced, so that a
 * test can move past a token's lifetime without waiting for it (test/auth/client-refresh.test.ts, verify.test.ts).
 */
export const clock: { now: () => number } = { now: () => Date.now() };
