/** @module Why the resource server refused an access token: its own module, so that the HTTP hook can tell it apart without loading the verifier (jose, oauth4webapi). */

/** Why a token was refused (the text goes to the access log and `error_description`, never the token). */
export class TokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenError";
  }
}
