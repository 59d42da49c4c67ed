/**
 * True while this tab signs out (from the POST /api/auth/logout until the auth state is cleared).
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
