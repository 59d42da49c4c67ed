import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { AppNotification, NotificationKind } from '@parley/contract/notifications';

/** What raises a toast on any signed-in page, with its title; the rest only counts on the bell. */
export const TOAST_TITLES: Partial<Record<NotificationKind, MessageDescriptor>> = {
  directMessage: msg`New message`,
  friendRequest: msg`Friend request`,
  mention: msg`You were mentioned`,
  threadReply: msg`New reply in a thread`,
  wentLive: msg`Live now`,
};

/** An in-app path as the server writes links: one leading slash, no scheme or host. */
const APP_PATH = /^\/(?![/\\])[^\s\\]*$/;

/** A path compared the way the router matches it: decoded, without a trailing slash, case aside (usernames are). */
function samePlace(a: string, b: string): boolean {
  const norm = (p: string) => {
    let out = p.split(/[?#]/)[0]!.replace(/\/+$/, '');
    try {
      out = decodeURIComponent(out);
    } catch {
      // a malformed escape stays as written
    }
    return out.toLowerCase();
  };
  return norm(a) === norm(b);
}

/**
 * Whether a notification that just arrived raises a toast on the page at `pathname`: one of the
 * kinds above, unread (one for what a page already shows arrives read), a link inside the app,
 * and not the page the person is on (the conversation they are reading shows the message itself).
 */
export function toastFor(
  n: Partial<AppNotification> | null | undefined,
  pathname: string,
): { title: MessageDescriptor; link: string } | null {
  if (!n || typeof n.notificationId !== 'string' || typeof n.link !== 'string' || typeof n.kind !== 'string') return null;
  const title = TOAST_TITLES[n.kind];
  if (!title || n.read || !APP_PATH.test(n.link) || samePlace(n.link, pathname)) return null;
  return { title, link: n.link };
}
