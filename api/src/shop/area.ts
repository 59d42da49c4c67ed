import { shopEvents, type GoldChanged } from '@parley/contract/shop';
import type { AppDeps } from '../deps.ts';
import { emojiOwners } from './emojiOwners.ts';
import { ownedEmojiCache } from './ownedEmoji.ts';
import { customEmojiRoutes } from './customEmoji.ts';
import { shopRoutes } from './routes.ts';
import { shopService } from './service.ts';
import { shopStore } from './store.ts';

/** The store and custom emoji as server.ts composes them. */
export function createShop(deps: AppDeps) {
  const onError = (err: unknown) => deps.log.warn({ err }, 'loading owned emoji failed');
  const store = shopStore(deps.db);
  // What a user may write as images: the picker's emoji (their packs' and their uploads), in one query.
  // Who owns any emoji at all, so that the many who own none cost no query as they connect.
  const owners = emojiOwners(deps.db, (userId) => emoji.refresh(userId), onError);
  const emoji = ownedEmojiCache((userId) => store.emojiNames(userId), onError, owners.mayOwn);
  const changed = (userId: string) => {
    owners.add(userId);
    emoji.refresh(userId);
  };
  const shop = shopService({
    store,
    emojiChanged: changed,
    goldChanged: (userId, gold) =>
      deps.realtime.toUser(userId, shopEvents.goldChanged, gold === undefined ? {} : ({ gold } satisfies GoldChanged)),
  });
  // Loads a user's emoji as they connect, so their first message is marked already.
  deps.realtime.io.on('connection', (socket) => emoji.connected(socket.data.user.userId));
  return {
    routes: shopRoutes(deps, shop),
    customEmojiRoutes: customEmojiRoutes(deps, store, changed),
    /** For the relay: the `:shortcodes:` of a message that its sender owns (synchronous, from memory). */
    verifiedEmoji: (userId: string, text: string) => emoji.verified(userId, text),
    service: shop,
    close: async () => {
      emoji.close();
      await owners.close();
    },
  };
}
