import { useCallback, useMemo } from 'react';
import type { RoomMessage } from '@parley/contract/rooms';
import { ConversationView } from '../../components/conversation/ConversationView';
import { STREAM_OFFERS } from '../../components/conversation/messageOffers';
import type { ModeratorAction, SenderRole } from '../../components/conversation/MessageRow';
import type { ReportChoice } from '../../realtime/reportEvidence';
import { useBlockedPeople } from '../../app/api';
import { toast } from '../../lib/toast';
import type { useLiveChat } from './useLiveChat';

type Chat = ReturnType<typeof useLiveChat>;

/** Chat lines beside a video are short; the server's limit is larger. */
const LIVE_CHAT_MAX_CHARS = 500;

/**
 * The stream's chat beside the video: the one conversation view, compact and dark. A moderator
 * (the broadcaster or someone they appointed) can delete a message and mute or ban its author;
 * the broadcaster can also appoint moderators.
 */
export function LiveChatPanel({
  chat,
  me,
  broadcasterId,
  onReport,
}: {
  chat: Chat;
  me: string;
  broadcasterId: string;
  /** A viewer reports someone's message (the chat around it goes with it); rejects with a readable Error. */
  onReport?: (m: RoomMessage, choice: ReportChoice) => Promise<void>;
}) {
  // Someone this user blocked says nothing here any more, including what is already on screen.
  const blocked = useBlockedPeople();
  const { state: roomState, room, moderators, mute, ban, appoint } = chat;
  // A removed message leaves a stream's chat altogether (a stream has no threads to keep in place).
  const state = useMemo(
    () => ({ ...roomState, messages: roomState.messages.filter((m) => !m.deleted && !blocked.has(m.senderId)) }),
    [roomState, blocked],
  );
  const isBroadcaster = me === broadcasterId;
  const moderates = isBroadcaster || moderators.includes(me);
  const canModerate = useCallback(
    (senderId: string) => moderates && senderId !== me && senderId !== broadcasterId,
    [moderates, me, broadcasterId],
  );
  const roleOf = useCallback(
    (senderId: string): SenderRole => (senderId === broadcasterId ? 'host' : moderators.includes(senderId) ? 'moderator' : null),
    [broadcasterId, moderators],
  );
  const moderation = useCallback(
    (m: RoomMessage): ModeratorAction[] => {
      if (!canModerate(m.senderId)) return [];
      // A refusal (the server decides who outranks whom) is said; success shows in the chat itself.
      const run = (p: Promise<string | null>) =>
        void p.then((problem) => problem && toast({ title: 'Not done', description: problem, variant: 'error' }));
      const isMod = moderators.includes(m.senderId);
      return [
        { label: 'Mute', name: `Mute ${m.senderName}`, run: () => run(mute(m.senderId, true)) },
        { label: 'Ban', name: `Ban ${m.senderName}`, danger: true, run: () => run(ban(m.senderId)) },
        ...(isBroadcaster
          ? [
              {
                label: isMod ? 'Unmod' : 'Mod',
                name: isMod ? `Remove ${m.senderName} as moderator` : `Make ${m.senderName} a moderator`,
                run: () => run(appoint(m.senderId, !isMod)),
              },
            ]
          : []),
      ];
    },
    [canModerate, moderators, isBroadcaster, mute, ban, appoint],
  );

  // A height of its own: the list scrolls inside it instead of growing the page with every message.
  return (
    <section
      aria-label="Stream chat"
      className="flex h-[min(32rem,70dvh)] min-h-0 flex-col rounded-xl bg-slate-900 text-white lg:h-[min(40rem,calc(100dvh-7rem))]"
    >
      <h2 className="px-3 pt-3 text-sm font-semibold text-slate-200">Chat</h2>
      {room && (
        <ConversationView
          state={state}
          room={room}
          myId={me}
          look="panel"
          label="Stream chat messages"
          composerLabel="Message the stream"
          placeholder="Say something"
          writeBlocked={chat.muted ? 'A moderator muted you in this chat.' : null}
          offers={STREAM_OFFERS}
          canModerate={canModerate}
          moderation={moderation}
          onReport={onReport}
          readPositions={false}
          typing={false}
          roleOf={roleOf}
          maxLength={LIVE_CHAT_MAX_CHARS}
          testIds={{ list: 'live-chat', pending: 'live-pending' }}
        />
      )}
    </section>
  );
}
