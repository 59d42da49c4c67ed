import { withPageMessages } from '../lib/i18n/i18n';
import { lazyPage, preload } from './lazyPage';

/*
 * The code around every signed-in page, in chunks of its own that a visitor never downloads. Kept
 * here so the route table can start fetching them beside the session check (preloadRoute).
 */

// The socket client loads once someone is signed in, not with the landing page of a visitor.
// The signed-in frame (places, unread counts, the bell) is code a visitor never needs.
export const SignedInFrame = lazyPage(withPageMessages(() => import('./frame/SignedInFrame')));
export const RealtimeProvider = lazyPage(() => import('./RealtimeProvider').then((m) => ({ default: m.RealtimeProvider })));

// It reports over the realtime connection: the socket client and the contract's schemas load with
// the first signed-in page, not with the sign-in page beside this guard.
export const WarningNotice = lazyPage(() => import('../features/safety/WarningNotice').then((m) => ({ default: m.WarningNotice })));
export const LevelUpMoment = lazyPage(() => import('../features/missions/LevelUpMoment').then((m) => ({ default: m.LevelUpMoment })));
// The user's custom emoji for every conversation (a small chunk, loaded with the first signed-in page).
export const OwnedEmojiProvider = lazyPage(() =>
  import('../features/shop/OwnedEmojiProvider').then((m) => ({ default: m.OwnedEmojiProvider })),
);

/** The signed-in frame around a page, fetched early when a session is likely. */
export const preloadSignedInFrame = () => preload(SignedInFrame, RealtimeProvider);
/** What the guard adds around every signed-in page, fetched early when the page needs a session. */
export const preloadSignedInGuard = () => preload(WarningNotice, LevelUpMoment, OwnedEmojiProvider);
