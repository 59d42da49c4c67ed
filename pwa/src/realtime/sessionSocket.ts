import { connectSocket, getSocketFailure, getSocketStatus, reconnectSocket, subscribeSocketStatus, type SocketIdentity } from './socket';
import { dismissToast, toast } from '../lib/toast';
import { isSigningOut } from '../lib/signingOut';
import { hasBanNotice } from '../lib/banNotice';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

export type SessionSocketActions = {
  /** Signs out on this device (POST /api/auth/logout, then the auth state is cleared). */
  signOut(): void;
  /** Renews the access token: the new one, null when the session is over; rejects when unreachable. */
  refresh(): Promise<string | null>;
  /** Who the socket is for right now. */
  identity(): SocketIdentity | null;
};

/**
 * How the session answers what happens to its socket: the server ending it on purpose signs the
 * user out; a refused handshake (an access token that expired while offline) renews the token
 * once and retries; exhausted reconnection attempts raise a toast with a Reconnect action; a build
 * too old for the server is left to the update banner.
 */
export function watchSessionSocket(actions: SessionSocketActions): () => void {
  let lostToast: string | null = null;
  let refreshTried = false;

  function showLost() {
    if (lostToast) dismissToast(lostToast);
    lostToast = toast({
      title: i18n._(msg`Connection lost`),
      description: i18n._(msg`Parley could not reach the server. Check your connection, then reconnect.`),
      variant: 'error',
      duration: Infinity,
      action: { label: i18n._(msg`Reconnect`), onClick: reconnectSocket },
    }).id;
  }

  function renewAndRetry() {
    refreshTried = true;
    actions.refresh().then(
      (token) => {
        const who = actions.identity();
        if (token === null) actions.signOut();
        else if (who) connectSocket({ ...who, token }); // retries at once with the fresh token
      },
      () => showLost(),
    );
  }

  return subscribeSocketStatus(() => {
    const status = getSocketStatus();
    if (status === 'connected') {
      refreshTried = false;
      if (lostToast) dismissToast(lostToast);
      lostToast = null;
    } else if (status === 'ended') {
      // This tab is signing out itself: the server ended its sign-in's sockets, this one's too.
      if (isSigningOut()) return;
      // Signed out elsewhere or banned: the server already ended it, so this device follows.
      actions.signOut();
      // Banned: the sign-in screen, where signing out lands, says why and links the appeal.
      if (hasBanNotice()) return;
      toast({ title: i18n._(msg`You were signed out`), description: i18n._(msg`Your session ended. Sign in again to keep chatting.`) });
    } else if (status === 'failed') {
      // A tab signing out has nothing to reconnect to: its sign-in is over on purpose.
      if (isSigningOut()) return;
      // Too old a build: the update banner (UpdateRequiredBanner) asks for a reload; nothing here helps.
      if (getSocketFailure() === 'outdated') return;
      if (getSocketFailure() === 'refused' && !refreshTried) renewAndRetry();
      else showLost();
    }
  });
}
