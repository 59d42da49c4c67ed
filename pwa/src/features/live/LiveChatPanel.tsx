import { useCallback, useMemo } from 'react';
import type { RoomMessage } from '@parley/contract/rooms';
import { ConversationView } from '../../components/conversation/ConversationView';
import { STREAM_OFFERS } from '../../components/conversation/messageOffers';
import type { ModeratorAction, SenderRole } from '../../components/conversation/MessageRow';
import type { ReportChoice } from '../../realtime/reportEvidence';
import { useBlockedPeople } from '../../store/api';
import { messageModeration, say } from '../../components/conversation/moderation';
import { useMutedLine } from '../../components/conversation/useMutedLine';
import type { useLiveChat } from './useLiveChat';
import { Trans, useLingui } from '@lingui/react/macro';

type Chat = ReturnType<typeof useLiveChat>;

/** Chat lines beside a video are short; the server's limit is larger. */
const LIVE_CHAT_MAX_CHARS = 500;

/**
 * The stream's chat beside the video: the one conversation view, compact and dark. A moderator
 * (the broadcaster or someone they appointed) can delete a message and mute or ban its author,
 * with the same menu as a group room; the broadcaster can also appoint moderators.
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
  const { t } = useLingui();
  // Someone this user blocked says nothing here any more, including what is already on screen.
  const blocked = useBlockedPeople();
  const { state: roomState, room, moderators, moderate } = chat;
  const muted = useMutedLine(roomState.mutedUntil);
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
      // A stream has no kick (watching again would undo it); its broadcaster appoints from the chat.
      return messageModeration(m, (a) => say(moderate(a)), {
        kick: false,
        appoint: isBroadcaster ? { isModerator: moderators.includes(m.senderId) } : undefined,
      });
    },
    [canModerate, moderators, isBroadcaster, moderate],
  );

  // A height of its own: the list scrolls inside it instead of growing the page with every message.
  return (
    <section
      aria-label={t`Stream chat`}
      className="flex h-[min(32rem,70dvh)] min-h-0 flex-col rounded-xl bg-slate-900 text-white lg:h-[min(40rem,calc(100dvh-7rem))]"
    >
      <h2 className="px-3 pt-3 text-sm font-semibold text-slate-200">
        <Trans>Chat</Trans>
      </h2>
      {room && (
        <ConversationView
          state={state}
          room={room}
          myId={me}
          look="panel"
          label={t`Stream chat messages`}
          composerLabel={t`Message the stream`}
          placeholder={t`Say something`}
          writeBlocked={muted}
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
