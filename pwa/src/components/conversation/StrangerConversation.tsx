import { useMemo, useState, type ReactNode } from 'react';
import type { ConversationMessage } from '../../lib/conversation';
import { ConversationView, type ConversationState } from './ConversationView';
import type { ConversationLook, ShownMessage } from './MessageRow';
import { STRANGER_OFFERS } from './messageOffers';
import { adaptMessages } from './strangerMessages';
import { emptyRoomState } from '../../realtime/storedRoom';
import { useOwnedEmoji } from './ownedEmoji';

/** A 1:1 chat has two authors, told apart as the room connection does: `me` and `stranger`. */
const ME: ConversationMessage['from'] = 'me';
const STRANGER: ConversationMessage['from'] = 'stranger';

/**
 * A 1:1 chat with a stranger (the text chat, the panel beside a video) drawn by the one
 * conversation view: the room connection's messages, with how far ours got, become the view's.
 * The chat keeps no history, reactions, edits or read positions; Report and the composer are the
 * page's, so they stay with the chat when the partner leaves.
 */
export function StrangerConversation({
  messages,
  partnerName,
  partnerTyping,
  onRetry,
  look = 'page',
  listLabel,
  intro = null,
  notices,
  composer,
}: {
  messages: readonly ConversationMessage[];
  partnerName: string;
  partnerTyping: boolean;
  /** Sends again one of ours that was not sent; given while it can be (in the room, both connected). */
  onRetry?: ((id: string) => void) | undefined;
  look?: ConversationLook;
  listLabel?: string;
  /** Above the messages: the partner card. */
  intro?: ReactNode;
  notices?: ReactNode;
  composer: ReactNode;
}) {
  const shown = useShownMessages(messages, partnerName);
  const state: ConversationState = useMemo(
    () => ({
      ...emptyRoomState(),
      // The beginning line stays out: the partner card, or nothing beside a video, stands there.
      phase: 'open',
      messages: shown,
      typing: partnerTyping ? { [STRANGER]: partnerName } : {},
    }),
    [shown, partnerTyping, partnerName],
  );
  const retry = useMemo(
    () =>
      onRetry &&
      ((m: ShownMessage) => {
        if (m.clientId !== null) onRetry(m.clientId);
      }),
    [onRetry],
  );
  const ownStatus = useMemo(() => ({ messages, canRetry: onRetry !== undefined }), [messages, onRetry]);

  return (
    <ConversationView
      state={state}
      room={NO_STORED_ROOM}
      myId={ME}
      label={`Conversation with ${partnerName}`}
      look={look}
      offers={STRANGER_OFFERS}
      readPositions={false}
      namesShown={false}
      listLabel={listLabel}
      intro={intro}
      onRetry={retry}
      ownStatus={ownStatus}
      countNew
      notices={notices}
      composer={composer}
    />
  );
}

/** Nothing of a stored room: the 1:1 chat's connection is the page's (see roomConnection.ts). */
const NO_STORED_ROOM = {};

function useShownMessages(messages: readonly ConversationMessage[], partnerName: string): readonly ShownMessage[] {
  const owned = useOwnedEmoji();
  const ownedNames = useMemo(() => owned.map((e) => e.name), [owned]);
  const [adapted, setAdapted] = useState(() => adaptMessages(null, messages, partnerName, ownedNames));
  // Adapted again as the messages change, from what was adapted before (so numbers and rows are kept).
  if (adapted.from !== messages || adapted.partnerName !== partnerName || adapted.ownedNames !== ownedNames) {
    const next = adaptMessages(adapted, messages, partnerName, ownedNames);
    setAdapted(next);
    return next.shown;
  }
  return adapted.shown;
}
