/** @module Reading an HTTP request's body under its own deadline, so a client sending it slowly cannot hold a socket for the whole request timeout. */

/** What {@link readBody} rejects with when the deadline passes first. */
export const BODY_TIMEOUT = Symbol("body timeout");

/**
 * Reads a request's body as text, bounded in time: the read is cancelled when `deadline` passes.
 * @param req - the request.
 * @param deadline - ms since the epoch (`Date.now()` clock); Infinity for none.
 * @returns the body.
 * @throws {@link BODY_TIMEOUT} when the deadline passes first; the body stream's error otherwise (e.g. too large).
 */
export function readBody(req: Request, deadline: number): Promise<string> {
  if (deadline === Infinity) return req.text();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(BODY_TIMEOUT);
      // Stop taking what is left of the body; the 408 closes the connection.
      req.body?.cancel().catch(() => {});
    }, Math.max(0, deadline - Date.now()));
  });
  return Promise.race([req.text(), late]).finally(() => clearTimeout(timer));
}
