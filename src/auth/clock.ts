/** @module The clock an OAuth client reads its tokens' expiry against: the wall clock, which a test may move. */

/**
 * The current time for token expiry, milliseconds since the epoch. `Date.now` unless replaced, so that a test
 * can move past an access token's lifetime without waiting for it (test/auth/client-refresh.test.ts).
 */
export const clock: { now: () => number } = { now: () => Date.now() };
