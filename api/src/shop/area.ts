import { shopEvents } from '@parley/contract/shop';
import type { AppDeps } from '../deps.ts';
import type { Realtime } from '../realtime/server.ts';
import { ownedEmojiCache } from './ownedEmoji.ts';
import { customEmojiRoutes } from './customEmoji.ts';
import { shopRoutes } from './routes.ts';
import { shopService } from './service.ts';
import { shopStore } from './store.ts';

/** The store and custom emoji as server.ts composes them. */
export function createShop(deps: AppDeps) {
  const onError = (err: unknown) => deps.log.warn({ err }, 'loading owned emoji failed');
  const store = shopStore(deps.db);
  // What a user may write as images: the picker's emoji (their packs' and their uploads), loaded once `shop` exists.
  const emoji = ownedEmojiCache(async (userId) => (await shop.ownedEmoji(userId)).map((e) => e.name), onError);
  const shop = shopService({
    store,
    emojiChanged: (userId) => emoji.refresh(userId),
    goldChanged: (userId) => deps.realtime?.toUser(userId, shopEvents.goldChanged, {}),
  });
  return {
    routes: shopRoutes(deps, shop),
    customEmojiRoutes: customEmojiRoutes(deps, store, (userId) => emoji.refresh(userId)),
    /** Loads a user's emoji as they connect, so their first message is marked already. */
    attach(realtime: Realtime) {
      realtime.io.on('connection', (socket) => emoji.refresh(socket.data.user.userId));
    },
    /** For the relay: the `:shortcodes:` of a message that its sender owns (synchronous, from memory). */
    verifiedEmoji: (userId: string, text: string) => emoji.verified(userId, text),
    service: shop,
    close: async () => emoji.close(),
  };
}
