/**
 * True while this tab signs out: from the POST /api/auth/logout until its socket is closed (or the
 * next sign-in connects one).
 * The server then ends the sockets of this sign-in, this tab's own included: the socket watcher
 * reads this so that the tab signing out is not also told that it "was signed out".
 */
let signingOut = false;

export function isSigningOut(): boolean {
  return signingOut;
}

export function setSigningOut(value: boolean): void {
  signingOut = value;
}
