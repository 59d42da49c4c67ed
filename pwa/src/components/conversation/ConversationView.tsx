import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { RoomMessage } from '@parley/contract/rooms';
import { focusRing } from '../ui/buttonStyles';
import type { StoredRoomConnection, StoredRoomState } from '../../realtime/storedRoom';
import { typingLine } from '../../realtime/storedMessages';
import { Composer, type ComposerHandle } from './Composer';
import { PendingRow } from './PendingRow';
import {
  MessageRow,
  type ConversationLook,
  type MessageActions,
  type ModeratorAction,
  type SenderRole,
  type ShownMessage,
} from './MessageRow';
import type { LinkMode } from './LinkedText';
import type { LoadLinkPreview } from './LinkPreviewCard';
import { MediaContext, type ConversationMedia } from './media';
import { ROOM_OFFERS, type MessageOffers } from './messageOffers';
import type { ReportChoice } from '../../realtime/reportEvidence';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { ask } from '../ui/askDialog';

// Within this distance of the bottom the reader counts as following the conversation.
const STICKY_PX = 64;
const MENTION_AT_END = /(^|\s)@([A-Za-z0-9_-]*)$/;

const pill = `rounded-full bg-indigo-700 px-4 py-1.5 text-sm font-semibold text-white shadow-lg hover:bg-indigo-800 ${focusRing}`;

/** What the view reads of a conversation: a stored room's state, or a 1:1 chat's as its adapter puts it. */
export type ConversationState = Pick<
  StoredRoomState,
  'phase' | 'pending' | 'hasOlder' | 'loadingOlder' | 'readAtOpen' | 'readBy' | 'people' | 'typing'
> &
  Partial<Pick<StoredRoomState, 'gapAfter' | 'loadingGap'>> & { messages: readonly ShownMessage[] };

/**
 * What the view asks of the conversation's connection. A 1:1 chat with a stranger keeps no history,
 * reactions, edits or read positions and writes through its own composer: it gives none of them.
 */
export type ConversationConnection = Partial<
  Pick<
    StoredRoomConnection,
    | 'send'
    | 'sendAttachment'
    | 'sendMedia'
    | 'typing'
    | 'retry'
    | 'discard'
    | 'react'
    | 'edit'
    | 'remove'
    | 'markRead'
    | 'loadOlder'
    | 'loadGap'
  >
>;

const TONES = {
  page: {
    scroller: 'px-3 py-4 focus-visible:outline-indigo-700 sm:px-4',
    link: 'text-indigo-800',
    quiet: 'text-slate-600',
    typing: 'px-4 text-slate-700',
    marker: 'text-red-700',
    markerLine: 'bg-red-300',
  },
  panel: {
    scroller: 'px-3 py-2 focus-visible:outline-white',
    link: 'text-sky-300',
    quiet: 'text-slate-300',
    typing: 'px-3 text-slate-300',
    marker: 'text-red-300',
    markerLine: 'bg-red-400',
  },
} as const;

/**
 * One conversation, whichever its kind (a group room, a direct conversation, a stream's chat):
 * history loaded upwards, opened at the first unread message with a marker, replies, reactions,
 * edits, deletions, gifts, receipts, who is typing, @mention suggestions, and our messages on
 * their way (a message written offline waits and goes once back). What differs by kind is chrome
 * the page passes in: the look, which actions a message offers, what its moderators may do.
 */
export function ConversationView({
  state,
  room,
  myId,
  label,
  placeholder = '',
  writeBlocked = null,
  look = 'page',
  composerLabel,
  offers = ROOM_OFFERS,
  canModerate,
  moderation,
  onReport,
  receiptsFor,
  readPositions = true,
  typing = true,
  roleOf,
  maxLength,
  testIds,
  intro,
  namesShown = true,
  listLabel,
  countNew = false,
  notices,
  composer: ownComposer,
  links = 'guarded',
  linkPreview,
  focusId = null,
  media,
  threads,
  regionLabel,
}: {
  state: ConversationState;
  room: ConversationConnection;
  myId: string;
  /** What the conversation is called for screen readers ("Conversation in Music Lounge"). */
  label: string;
  /** The composer's placeholder (unused where the page brings its own composer). */
  placeholder?: string;
  /** Why this user cannot write now (muted, read-only), or null. */
  writeBlocked?: string | null;
  look?: ConversationLook;
  /** The text box's accessible name. */
  composerLabel?: string;
  offers?: MessageOffers;
  /** The viewer moderates the conversation and outranks this author: they may delete the author's messages. */
  canModerate?: (senderId: string) => boolean;
  /** What the viewer may do to a message's author besides deleting (mute, kick, ban, appoint). */
  moderation?: (m: RoomMessage) => ModeratorAction[];
  onReport?: (m: RoomMessage, choice: ReportChoice) => Promise<void>;
  /** Direct rooms: the friend whose read position shows as "Seen" under our last message. */
  receiptsFor?: string | undefined;
  /** The conversation keeps where each reader got to: the unread marker, and reading moves it on. */
  readPositions?: boolean;
  /** Who is typing is said and shown (a crowd's chat has it off). */
  typing?: boolean;
  /** The author's standing, shown with their name. */
  roleOf?: (senderId: string) => SenderRole;
  maxLength?: number;
  /** Test handles of the list and of our messages on their way. */
  testIds?: { list?: string; pending?: string };
  /** Where the conversation begins (the partner card of a 1:1 chat), in place of the line saying so. */
  intro?: ReactNode;
  /** On a page, authors' names head their messages; a 1:1 chat only tells screen readers who wrote each. */
  namesShown?: boolean;
  /** The list's own name, where the page gives the scrolling region no other (beside a video). */
  listLabel?: string;
  /** Without read positions, messages arriving while the reader is scrolled up are counted on a pill. */
  countNew?: boolean;
  /** Shown between the conversation and the composer (who the chat is with, that the partner left). */
  notices?: ReactNode;
  /** The page's own composer, where its draft lives elsewhere (a 1:1 chat keeps it with the room). */
  composer?: ReactNode;
  /** Links are links at once (friends, rooms people chose) or text with an "Open link" (strangers, by default). */
  links?: LinkMode;
  /** Where links are previewed: the preview of a message's first link. */
  linkPreview?: LoadLinkPreview;
  /** The message to show (a search's hit): scrolled to, outlined and focused once it is held. */
  focusId?: number | null;
  /** Pictures and voice messages (group rooms and direct messages): shown, and offered in the composer. */
  media?: ConversationMedia | undefined;
  /** Group rooms: a message's thread opens beside the room (or over it on a phone); unread replies per thread. */
  threads?: { open(m: RoomMessage): void; unread: Readonly<Record<string, number>> } | undefined;
  /** The scrolling region's name, where a page shows two conversations (a room and a thread of it). */
  regionLabel?: string | undefined;
}) {
  const t = TONES[look];
  const { i18n } = useLingui();
  const scroller = useRef<HTMLDivElement>(null);
  const composer = useRef<ComposerHandle>(null);
  // The emoji picker (standard emoji and the user's own, as in 1:1 chats) beside the text box.
  const [pickerOpen, setPickerOpen] = useState(false);
  const emoji = useMemo(() => ({ open: pickerOpen, onOpenChange: setPickerOpen }), [pickerOpen]);
  const [draft, setDraft] = useState('');
  const [replyTo, setReplyTo] = useState<RoomMessage | null>(null);
  const [following, setFollowing] = useState(true);
  const openedAt = useRef(false);
  const { messages, pending } = state;
  // How many messages the reader has seen: everything up to when they scrolled away from the bottom.
  const [seenCount, setSeenCount] = useState(messages.length);
  if (messages.length < seenCount) setSeenCount(messages.length); // a new conversation began
  const unseen = countNew && !following ? messages.length - seenCount : 0;
  const readAtOpen = readPositions ? state.readAtOpen : null;
  const last = messages[messages.length - 1];
  const firstUnread = readAtOpen === null ? undefined : messages.find((m) => m.id > readAtOpen && m.senderId !== myId);
  // The jump pill: while what was unread at opening is not all read (the reader has not reached the
  // bottom since) and its first message is out of view.
  const [readAllFrom, setReadAllFrom] = useState<number | null>(null);
  const [markerAway, setMarkerAway] = useState(false);
  const jumpOffered = Boolean(firstUnread) && !following && readAllFrom !== readAtOpen && markerAway;

  const actions: MessageActions = useMemo(
    () => ({
      onReply: offers.reply
        ? (m) => {
            setReplyTo(m);
            composer.current?.focus();
          }
        : undefined,
      onReact: offers.react && room.react ? (m, emoji, on) => void room.react!(m.id, emoji, on) : undefined,
      onEdit: offers.editOwn && room.edit ? (m, text) => room.edit!(m.id, text) : undefined,
      onDelete: room.remove
        ? (m) => {
            const sure = offers.confirmDelete
              ? ask({ title: i18n._(msg`Delete this message for everyone?`), confirmLabel: i18n._(msg`Delete`), danger: true })
              : Promise.resolve({ reason: '' });
            void sure.then((answer) => answer && room.remove!(m.id));
          }
        : undefined,
      deleteOwn: offers.deleteOwn,
      onReport,
      moderation,
      onThread: threads?.open,
    }),
    [room, offers, onReport, moderation, i18n, threads?.open],
  );

  const toBottom = useCallback((smooth: boolean) => {
    const el = scroller.current;
    if (el) el.scrollTo({ top: el.scrollHeight, behavior: smooth ? 'smooth' : 'auto' });
  }, []);
  const jumpToFirstUnread = useCallback(() => {
    const el = scroller.current?.querySelector<HTMLElement>('[data-first-unread]');
    el?.scrollIntoView({ block: 'start' });
    // Decided now, not at the scroll event: pages of unread arriving meanwhile must not pull the reader down.
    const s = scroller.current;
    if (!s) return;
    const atBottom = s.scrollHeight - s.scrollTop - s.clientHeight <= STICKY_PX;
    setFollowing(atBottom);
    if (atBottom) setReadAllFrom(readAtOpen);
  }, [readAtOpen]);

  // The first time messages arrive the page opens at the first unread one, else at the bottom;
  // afterwards it follows new messages only while the reader is at the bottom or sent them.
  useLayoutEffect(() => {
    if (!last) return;
    if (!openedAt.current) {
      openedAt.current = true;
      if (focusId !== null) return;
      if (firstUnread) return jumpToFirstUnread();
      return toBottom(false);
    }
    if (following || last.senderId === myId) toBottom(false);
    // Only a new last message or a message of ours on its way matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [last?.id, pending.length]);

  // A search's hit: once held, it is brought into view and focused, and new messages no longer pull the reader away.
  const focused = useRef<number | null>(null);
  const focusHeld = focusId !== null && messages.some((m) => m.id === focusId);
  useLayoutEffect(() => {
    if (!focusHeld || focused.current === focusId) return;
    const el = scroller.current?.querySelector<HTMLElement>(`[data-message-id="${focusId}"]`);
    if (!el) return;
    focused.current = focusId;
    el.scrollIntoView({ block: 'center' });
    el.focus({ preventScroll: true });
    setFollowing(false);
  }, [focusHeld, focusId]);

  // What the reader has seen at the bottom is read.
  useLayoutEffect(() => {
    if (readPositions && following && last && document.visibilityState === 'visible') room.markRead?.(last.id);
  }, [readPositions, following, last, room]);

  function onScroll() {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= STICKY_PX;
    setFollowing(atBottom);
    if (atBottom) setReadAllFrom(readAtOpen);
    const marker = el.querySelector('[data-first-unread]')?.getBoundingClientRect();
    const view = el.getBoundingClientRect();
    setMarkerAway(marker !== undefined && (marker.bottom < view.top || marker.top > view.bottom));
    if (countNew && (atBottom || following)) setSeenCount(messages.length);
    if (el.scrollTop < 40 && state.hasOlder && !state.loadingOlder && room.loadOlder) {
      // Keep the reader's place while older messages are added above.
      const from = el.scrollHeight - el.scrollTop;
      void room.loadOlder().then(() => requestAnimationFrame(() => el.scrollTo({ top: el.scrollHeight - from })));
    }
  }

  const mention = MENTION_AT_END.exec(draft);
  const suggestions = mention
    ? state.people.filter((p) => p.userId !== myId && p.username.toLowerCase().startsWith(mention[2]!.toLowerCase())).slice(0, 5)
    : [];
  const pickMention = (username: string) => {
    setDraft(draft.replace(MENTION_AT_END, (_all, lead: string) => `${lead}@${username} `));
    composer.current?.focus();
  };
  const typingNames = typing
    ? Object.entries(state.typing)
        .filter(([id]) => id !== myId)
        .map(([, name]) => name)
    : [];
  const seenId = receiptsFor ? state.readBy[receiptsFor] : undefined;
  const lastMine = receiptsFor ? messages.findLast((m) => m.senderId === myId) : undefined;
  const unreadBelow = !following && last && firstUnread && firstUnread.id <= last.id;
  const sayTyping = useCallback((on: boolean) => typing && room.typing?.(on), [typing, room]);
  const attach = useMemo(
    () =>
      media && room.sendAttachment
        ? {
            onPicture: (file: File) => room.sendAttachment!('image', file),
            onVoice: (blob: Blob, durationMs: number) => room.sendAttachment!('voice', blob, '', durationMs),
            ...(room.sendMedia && { media: { source: media, onPick: room.sendMedia } }),
          }
        : undefined,
    [media, room],
  );
  return (
    <MediaContext.Provider value={media ?? null}>
      <div className="flex min-h-0 flex-1 flex-col">
        <div className="relative min-h-0 flex-1">
          <div
            ref={scroller}
            onScroll={onScroll}
            tabIndex={0}
            role="region"
            aria-label={regionLabel ?? i18n._(msg`Messages`)}
            data-testid={testIds?.list}
            className={`h-full overflow-y-auto overscroll-contain focus-visible:outline-2 focus-visible:-outline-offset-2 ${t.scroller}`}
          >
            {intro}
            {state.hasOlder ? (
              <div className="mb-3 text-center">
                <button
                  type="button"
                  onClick={() => void room.loadOlder?.()}
                  disabled={state.loadingOlder}
                  className={`text-sm font-semibold underline ${t.link} ${look === 'page' ? focusRing : 'focus-visible:outline-2 focus-visible:outline-white'}`}
                >
                  {state.loadingOlder ? <Trans>Loading…</Trans> : <Trans>Load older messages</Trans>}
                </button>
              </div>
            ) : (
              state.phase === 'open' &&
              intro === undefined && (
                <p className={`mb-3 text-center text-sm ${t.quiet}`}>
                  <Trans>This is the beginning of the conversation.</Trans>
                </p>
              )
            )}
            <div role="log" aria-live="polite" aria-relevant="additions" aria-label={label}>
              <ol className="space-y-2" aria-label={listLabel}>
                {messages.map((m, i) => (
                  <FirstUnreadMarker key={m.id} show={m === firstUnread} tone={t}>
                    {state.gapAfter != null && m.id > state.gapAfter && (i === 0 || messages[i - 1]!.id <= state.gapAfter) && (
                      <li className="text-center">
                        <button
                          type="button"
                          onClick={() => void room.loadGap?.()}
                          disabled={state.loadingGap}
                          className={`text-sm font-semibold underline ${t.link} ${look === 'page' ? focusRing : 'focus-visible:outline-2 focus-visible:outline-white'}`}
                        >
                          {state.loadingGap ? <Trans>Loading…</Trans> : <Trans>Load newer messages</Trans>}
                        </button>
                      </li>
                    )}
                    <MessageRow
                      message={m}
                      myId={myId}
                      canModerate={m.senderId !== myId && (canModerate?.(m.senderId) ?? false)}
                      seenBy={m === lastMine && seenId !== undefined && seenId >= m.id ? receiptsFor! : null}
                      actions={actions}
                      look={look}
                      role={roleOf?.(m.senderId) ?? null}
                      nameShown={namesShown}
                      links={links}
                      linkPreview={linkPreview}
                      highlighted={m.id === focusId}
                      threadUnread={threads?.unread[m.id] ?? 0}
                    />
                  </FirstUnreadMarker>
                ))}
                {pending.map((p) => (
                  <PendingRow key={p.clientId} p={p} room={room} look={look} testId={testIds?.pending} />
                ))}
              </ol>
            </div>
          </div>
          <div className="absolute bottom-3 left-1/2 flex -translate-x-1/2 gap-2">
            {jumpOffered && (
              <button type="button" onClick={jumpToFirstUnread} className={pill}>
                <Trans>Jump to first unread</Trans>
              </button>
            )}
            {unreadBelow && (
              <button type="button" onClick={() => toBottom(true)} className={pill}>
                <Trans>Latest</Trans> <span aria-hidden="true">↓</span>
              </button>
            )}
            {unseen > 0 && (
              <button type="button" onClick={() => toBottom(true)} className={`whitespace-nowrap ${pill}`}>
                <Plural value={unseen} one="# new message" other="# new messages" /> <span aria-hidden="true">↓</span>
              </button>
            )}
          </div>
        </div>
        <div className="shrink-0">
          {typing && (
            <p aria-live="polite" className={`min-h-6 text-sm ${t.typing}`}>
              {typingLine(typingNames, i18n)}
            </p>
          )}
          {replyTo && (
            <div className="mx-3 mb-1 flex items-center justify-between gap-2 rounded-lg border-s-4 border-indigo-600 bg-indigo-50 px-3 py-1 text-sm text-slate-900">
              <p className="truncate">
                <Trans>
                  Replying to <strong>{replyTo.senderName}</strong>: {replyTo.text}
                </Trans>
              </p>
              <button type="button" onClick={() => setReplyTo(null)} className={`rounded px-2 font-semibold text-indigo-800 ${focusRing}`}>
                <Trans>Cancel reply</Trans>
              </button>
            </div>
          )}
          {suggestions.length > 0 && (
            <ul aria-label={i18n._(msg`Mention someone`)} className="mx-3 mb-1 rounded-lg border border-slate-300 bg-white shadow">
              {suggestions.map((p) => (
                <li key={p.userId}>
                  <button
                    type="button"
                    onClick={() => pickMention(p.username)}
                    className={`w-full px-3 py-2 text-start text-slate-900 hover:bg-indigo-50 ${focusRing}`}
                  >
                    @{p.username}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {writeBlocked && (
            <p role="status" className="mx-3 mb-1 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
              {writeBlocked}
            </p>
          )}
          {notices}
          {ownComposer ?? (
            <Composer
              ref={composer}
              draft={draft}
              onDraftChange={setDraft}
              onSend={(text) => {
                room.send?.(text, replyTo?.id ?? null);
                setReplyTo(null);
              }}
              onTyping={sayTyping}
              disabled={state.phase !== 'open' || writeBlocked !== null}
              label={composerLabel}
              placeholder={placeholder}
              // The room keeps what is written offline and sends it once the connection is back.
              held
              bothHere
              emoji={emoji}
              maxLength={maxLength}
              variant={look}
              keysHint={i18n._(msg`Enter sends, Shift+Enter starts a new line. Type @ to mention someone.`)}
              attach={attach}
            />
          )}
        </div>
      </div>
    </MediaContext.Provider>
  );
}

function FirstUnreadMarker({ show, tone, children }: { show: boolean; tone: (typeof TONES)[ConversationLook]; children: ReactNode }) {
  const { i18n } = useLingui();
  if (!show) return <>{children}</>;
  return (
    <>
      <li
        data-first-unread
        className={`flex items-center gap-2 py-1 text-xs font-semibold ${tone.marker}`}
        aria-label={i18n._(msg`New messages below`)}
      >
        <span className={`h-px flex-1 ${tone.markerLine}`} aria-hidden="true" />
        <Trans>New messages</Trans>
        <span className={`h-px flex-1 ${tone.markerLine}`} aria-hidden="true" />
      </li>
      {children}
    </>
  );
}
