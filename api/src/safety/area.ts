import type { AppDeps } from '../deps.ts';
import { blockLists } from './blocks.ts';
import { conversationCounter, type EndedConversation } from './standing.ts';

/** The safety area as server.ts composes it: who must never meet whom (reports and bans come here too). */
export function createSafety(deps: AppDeps) {
  const onError = (err: unknown) => deps.log.error({ err }, 'safety background step failed');
  const blocks = blockLists(deps.db, onError);
  const conversations = conversationCounter(deps.db, onError);
  return {
    /** A room ended: a 1:1 chat in which both spoke adds to both accounts' standing. */
    conversationEnded: (e: EndedConversation) => conversations.ended(e),
    /** Users this one blocked or was blocked by. */
    blocksOf: (userId: string) => blocks.of(userId),
    /** A block between two users was added or removed in this process: both are looked up again at once. */
    blocksChanged: (a: string, b: string) => {
      blocks.forget(a);
      blocks.forget(b);
    },
    close: () => blocks.close(),
  };
}
