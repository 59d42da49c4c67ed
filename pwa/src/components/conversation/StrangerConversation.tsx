import { useEffect, useMemo, type ReactNode } from 'react';
import type { RoomMessage } from '@parley/contract/rooms';
import { ConversationView, type ConversationConnection, type ConversationState } from './ConversationView';
import type { ConversationLook, ShownMessage } from './MessageRow';
import { STRANGER_OFFERS } from './messageOffers';
import type { ConversationMedia } from './media';
import type { StoredRoomState } from '../../realtime/storedRoom';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';

/**
 * A 1:1 chat with a stranger (the text chat, the panel beside a video) drawn by the one
 * conversation view, from the chat's room on the core (realtime/strangerRoom.ts): our messages
 * on their way, then sent, then delivered once the partner's page showed them (their read
 * position), reactions, edits and deletions while the chat lasts. Report and the composer are the page's, so they stay with the chat when the partner leaves.
 */
export function StrangerConversation({
  state,
  room,
  myId,
  partnerId,
  partnerName,
  look = 'page',
  listLabel,
  intro = null,
  notices,
  composer,
  media,
}: {
  state: StoredRoomState;
  /** The chat's connection while it is on (its actions go); null once it ended (what was said stays readable). */
  room: ConversationConnection | null;
  myId: string;
  partnerId: string | null;
  partnerName: string;
  look?: ConversationLook;
  listLabel?: string;
  /** Above the messages: the partner card. */
  intro?: ReactNode;
  notices?: ReactNode;
  composer: ReactNode;
  /** Pictures, where the two allowed them: fetched as a member, the stranger's blurred until tapped. */
  media?: ConversationMedia;
}) {
  const { i18n } = useLingui();
  const shown = useShownMessages(state.messages, myId, partnerName, partnerId === null ? 0 : (state.readBy[partnerId] ?? 0));
  const view: ConversationState = useMemo(
    // The beginning line stays out: the partner card, or nothing beside a video, stands there.
    () => ({ ...state, phase: 'open', readAtOpen: null, messages: shown }),
    [state, shown],
  );

  // What reaches the page while it is shown is read: the partner's "Delivered". Said once a burst
  // settles (the server takes a few read positions a second and drops the rest).
  const last = state.messages.at(-1);
  useEffect(() => {
    // Up to the last message, ours included: the partner's that came before it were read with it.
    if (!room?.markRead || !last) return;
    const read = () => {
      if (document.visibilityState === 'visible') room.markRead!(last.id);
    };
    const t = setTimeout(read, READ_SETTLES_MS);
    // A page in the background reads it when it is looked at again.
    document.addEventListener('visibilitychange', read);
    return () => {
      clearTimeout(t);
      document.removeEventListener('visibilitychange', read);
    };
  }, [room, last]);

  return (
    <ConversationView
      state={view}
      room={room ?? ENDED}
      myId={myId}
      label={i18n._(msg`Conversation with ${partnerName}`)}
      look={look}
      offers={STRANGER_OFFERS}
      readPositions={false}
      namesShown={false}
      listLabel={listLabel}
      intro={intro}
      countNew
      notices={notices}
      composer={composer}
      media={media}
    />
  );
}

const READ_SETTLES_MS = 200;

/** A chat that ended offers nothing more to do to its messages. */
const ENDED: ConversationConnection = {};

/** Each message as shown, kept while it does not change: only a changed row renders again. */
const shownOf = new WeakMap<RoomMessage, ShownMessage>();

/**
 * Screen readers hear "You" and the partner's name before each message; ours say how far they
 * got: sent (the server has it), delivered (the partner's page has shown it: their read position).
 */
function useShownMessages(
  messages: readonly RoomMessage[],
  myId: string,
  partnerName: string,
  partnerRead: number,
): readonly ShownMessage[] {
  const { i18n } = useLingui();
  // One object per language, so a row renders again only when what it says changes.
  const words = useMemo(
    () => ({
      you: i18n._(msg`You`),
      sent: { status: 'sent', text: i18n._(msg`Sent`) } as const,
      delivered: { status: 'delivered', text: i18n._(msg`Delivered`) } as const,
    }),
    [i18n],
  );
  return useMemo(
    () =>
      messages.map((m) => {
        const mine = m.senderId === myId;
        const senderName = mine ? words.you : partnerName;
        const delivery = !mine ? undefined : m.id <= partnerRead ? words.delivered : words.sent;
        let s = shownOf.get(m);
        if (s?.senderName !== senderName || s.delivery !== delivery)
          shownOf.set(m, (s = { ...m, senderName, ...(delivery && { delivery }) }));
        return s;
      }),
    [messages, myId, partnerName, partnerRead, words],
  );
}
