import type { AppDeps } from '../deps.ts';
import type { Realtime } from '../realtime/server.ts';
import { blockLists } from './blocks.ts';
import { createInProcessMatchmaker } from './matchmaker.ts';
import { messageRateLimit } from './rateLimit.ts';
import { chatRoutes } from './routes.ts';
import { ChatSessions, type ResumedRoom } from './sessions.ts';
import { attachChatSockets, socketOutbox } from './socket.ts';
import { topicStats } from './topics.ts';

/**
 * The chat area as server.ts composes it: its HTTP routes first, then `attach` once the realtime
 * server exists. Returns the close step.
 */
export function createChat(deps: AppDeps) {
  const onError = (err: unknown) => deps.log.error({ err }, 'chat background step failed');
  const topics = topicStats(deps.db, onError);
  const blocks = blockLists(deps.db, onError);
  const messages = messageRateLimit();
  // Start and skip: 5 a second with a burst of 10, per user.
  const control = messageRateLimit(5, 10);
  // Typing on and off: 4 a second with a burst of 8, per user (the client sends changes only).
  const typing = messageRateLimit(4, 8);
  let sessions: ChatSessions | undefined;
  const resumedListeners = new Set<(r: ResumedRoom) => void>();
  return {
    routes: chatRoutes(deps, topics),
    blocks,
    /** Calls `listener` when a page takes back a chat the server held while its connection was down. */
    onResumed(listener: (r: ResumedRoom) => void) {
      resumedListeners.add(listener);
    },
    attach(realtime: Realtime) {
      sessions = new ChatSessions({
        outbox: socketOutbox(realtime.io),
        createMatchmaker: (onMatch) => createInProcessMatchmaker(onMatch),
        blocksOf: (userId) => blocks.of(userId),
        recordTopics: (userId, t) => topics.record(userId, t),
        allowMessage: (userId) => messages.take(userId),
        onResumed: (r) => resumedListeners.forEach((l) => l(r)),
        onError,
      });
      const chat = sessions;
      realtime.onEnded((ended) => chat.endHeld(ended));
      attachChatSockets(realtime.io, sessions, deps.log, {
        control: (userId) => control.take(userId),
        typing: (userId) => typing.take(userId),
      });
    },
    async close() {
      messages.close();
      control.close();
      typing.close();
      await sessions?.close();
      await topics.close();
      await blocks.close();
    },
  };
}
