/** @module Reads the Bearer challenge of a `WWW-Authenticate` header (RFC 6750 §3, RFC 9728 §5.1): resource_metadata, scope, error. */

/** The parameters of a Bearer challenge. */
export interface BearerChallenge {
  readonly error?: string;
  readonly errorDescription?: string;
  readonly scope?: string;
  readonly resourceMetadata?: string;
}

/**
 * The Bearer challenge of a response, if it has one. Auth-params are `name=token` or `name="quoted"`
 * (RFC 9110 §11.2); several challenges may share the header, only `Bearer`'s are read.
 * @param res - a 401 or 403 response.
 * @returns its parameters, or undefined when there is no Bearer challenge.
 */
export function bearerChallenge(res: Response): BearerChallenge | undefined {
  const header = res.headers.get("www-authenticate");
  if (header === null) return undefined;
  const start = /(?:^|,)\s*Bearer(?:\s+|$)/i.exec(header);
  if (!start) return undefined;
  const params: Record<string, string> = {};
  const re = /\s*([A-Za-z0-9_!#$%&'*+.^`|~-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^\s,]*)\s*(,|$)/y;
  re.lastIndex = start.index + start[0].length;
  for (let m = re.exec(header); m; m = re.exec(header)) {
    const name = m[1]!.toLowerCase();
    // A new scheme starts (`, Basic realm=…`): a token followed by a space, not by `=`. Stop at it.
    if (!(name in params)) params[name] = m[3] !== undefined ? m[3].replace(/\\(.)/g, "$1") : m[2]!;
    if (m[4] === "" || /^\s*[A-Za-z0-9_-]+\s+[A-Za-z0-9_-]+\s*=/.test(header.slice(re.lastIndex))) break;
  }
  return {
    ...(params.error ? { error: params.error } : {}),
    ...(params.error_description ? { errorDescription: params.error_description } : {}),
    ...(params.scope ? { scope: params.scope } : {}),
    ...(params.resource_metadata ? { resourceMetadata: params.resource_metadata } : {}),
  };
}
