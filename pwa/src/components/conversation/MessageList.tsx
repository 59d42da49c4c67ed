import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { focusRing } from '../FormField';
import { MessageStatusAnnouncer } from '../MessageStatusAnnouncer';
import { EmojiText } from './EmojiText';
import { useOwnedEmoji } from './ownedEmoji';
import { quoteMessage, statusText, type ConversationMessage } from '../../lib/conversation';

// Within this distance of the bottom the reader counts as following the conversation.
const STICKY_PX = 64;

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** How the conversation looks where it stands: a whole page (text chat), or the panel beside a video (dark). */
const VARIANTS = {
  page: {
    scroller:
      'h-full overflow-y-auto overscroll-contain px-3 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-700 sm:px-4',
    list: 'grid gap-2',
    bubble: 'max-w-[85%] rounded-2xl px-3.5 py-2 shadow-sm sm:max-w-[70%]',
    mine: 'rounded-br-md bg-indigo-700 text-white',
    theirs: 'rounded-bl-md border border-slate-200 bg-white text-slate-900',
    metaMine: 'text-indigo-100',
    metaTheirs: 'text-slate-600',
    failed: 'font-semibold text-amber-200',
    retry: `rounded font-semibold text-white underline underline-offset-2 hover:text-indigo-100 ${focusRing}`,
  },
  panel: {
    scroller: 'h-full overflow-y-auto p-3 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-white',
    list: 'space-y-2',
    bubble: 'max-w-[85%] rounded-2xl px-3 py-2',
    mine: 'bg-indigo-700 text-white',
    theirs: 'bg-slate-700 text-white',
    metaMine: 'text-indigo-100',
    metaTheirs: 'text-slate-300',
    failed: undefined,
    retry: 'rounded font-semibold text-white underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-white',
  },
} as const;
type Variant = keyof typeof VARIANTS;

/** One message; memoised, so that a new message or a status change renders only its own row. */
const MessageRow = memo(function MessageRow({
  message: m,
  partnerName,
  onRetry,
  variant,
}: {
  message: ConversationMessage;
  partnerName: string;
  onRetry: ((id: string) => void) | undefined;
  variant: Variant;
}) {
  const v = VARIANTS[variant];
  const mine = m.from === 'me';
  const owned = useOwnedEmoji();
  // Theirs: the shortcodes the server checked; ours: those we own (the server marks them the same for the partner).
  const verified = useMemo(() => (mine ? new Set(owned.map((e) => e.name)) : m.emoji && new Set(m.emoji)), [mine, owned, m.emoji]);
  return (
    <li className={`flex ${mine ? 'justify-end' : 'justify-start'}`}>
      <div className={`min-w-0 ${v.bubble} ${mine ? v.mine : v.theirs}`}>
        <span className="sr-only">{mine ? 'You:' : `${partnerName}:`} </span>
        {/* Any character may break a word too long for the line (a link, a key mash): it wraps instead of widening the conversation. */}
        <p dir="auto" className="whitespace-pre-wrap wrap-anywhere">
          <EmojiText text={m.text} verified={verified} />
        </p>
        <p className={`mt-0.5 flex justify-end gap-2 text-xs ${mine ? v.metaMine : v.metaTheirs}`}>
          <time dateTime={new Date(m.sentAt).toISOString()}>{timeFormat.format(m.sentAt)}</time>
          {mine && (
            <span data-status={m.status} className={m.status === 'failed' ? v.failed : undefined}>
              {statusText(m)}
            </span>
          )}
          {mine && m.status === 'failed' && onRetry && (
            <button type="button" onClick={() => onRetry(m.id)} aria-label={`Retry sending ${quoteMessage(m.text)}`} className={v.retry}>
              Retry
            </button>
          )}
        </p>
      </div>
    </li>
  );
});

/**
 * A room's conversation. New messages are announced politely (role log) and scroll into view only
 * when the reader is at the bottom or sent them; otherwise a "New messages" pill waits. Changes of
 * the user's own messages are read out by the status line (MessageStatusAnnouncer).
 */
export const MessageList = memo(function MessageList({
  messages,
  partnerName,
  onRetry,
  variant = 'page',
  footer,
  children,
}: {
  messages: readonly ConversationMessage[];
  partnerName: string;
  /** Sends a message that was not sent again; given while it can be (in the room, both connected). */
  onRetry?: (id: string) => void;
  variant?: Variant;
  /** Shown under the messages (the partner typing, beside a video). */
  footer?: ReactNode;
  /** Shown above the messages (the partner card). */
  children?: ReactNode;
}) {
  const v = VARIANTS[variant];
  const scroller = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  // How many messages the reader has seen: everything up to when they scrolled away from the bottom.
  const [seenCount, setSeenCount] = useState(messages.length);
  if (messages.length < seenCount) setSeenCount(messages.length); // a new conversation began
  const unread = following ? 0 : messages.length - seenCount;
  const last = messages[messages.length - 1];

  // The Retry button goes with the failure: focus stays in the conversation rather than falling to the page.
  const retry = useCallback(
    (id: string) => {
      onRetry?.(id);
      scroller.current?.focus();
    },
    [onRetry],
  );

  const toBottom = useCallback((smooth: boolean) => {
    const el = scroller.current;
    if (el) el.scrollTo({ top: el.scrollHeight, behavior: smooth ? 'smooth' : 'auto' });
  }, []);

  // Follow new messages only when the reader is at the bottom, or when they sent the message.
  useLayoutEffect(() => {
    if (following || last?.from === 'me') toBottom(false);
    // Only a new last message (or a new footer line) matters here, not a change of following.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [last?.id, last?.from, Boolean(footer), toBottom]);

  function onScroll() {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= STICKY_PX;
    if (atBottom || following) setSeenCount(messages.length);
    setFollowing(atBottom);
  }

  // The page names the scrolling region; beside a video the list itself is "Messages".
  const page = variant === 'page';
  return (
    <div className="relative min-h-0 flex-1">
      {/* Focusable, so that a long conversation can be scrolled from the keyboard too. */}
      <div
        ref={scroller}
        onScroll={onScroll}
        tabIndex={0}
        role={page ? 'region' : undefined}
        aria-label={page ? 'Messages' : undefined}
        className={v.scroller}
      >
        {children}
        <div role="log" aria-live="polite" aria-relevant="additions" aria-label={page ? `Conversation with ${partnerName}` : undefined}>
          <ol className={v.list} aria-label={page ? undefined : 'Messages'}>
            {messages.map((m) => (
              <MessageRow
                key={`${m.from}-${m.id}`}
                message={m}
                partnerName={partnerName}
                onRetry={onRetry ? retry : undefined}
                variant={variant}
              />
            ))}
          </ol>
        </div>
        {footer}
      </div>
      <MessageStatusAnnouncer messages={messages} canRetry={onRetry !== undefined} />
      {unread > 0 && (
        <button
          type="button"
          onClick={() => toBottom(true)}
          className={`absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-indigo-700 px-4 py-1.5 text-sm font-semibold text-white shadow-lg hover:bg-indigo-800 ${focusRing}`}
        >
          {unread === 1 ? '1 new message' : `${unread} new messages`} <span aria-hidden="true">↓</span>
        </button>
      )}
    </div>
  );
});
