import { memo, useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { focusRing } from '../../../components/FormField';
import { MessageStatusAnnouncer } from '../../../components/MessageStatusAnnouncer';
import { quoteMessage, statusText } from '../../../lib/conversation';
import type { MessageEntry } from '../chatSlice';

// Within this distance of the bottom the reader counts as following the conversation.
const STICKY_PX = 64;

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** One message; memoised, so that a new message or a status change renders only its own row. */
const MessageRow = memo(function MessageRow({
  message: m,
  partnerName,
  onRetry,
}: {
  message: MessageEntry;
  partnerName: string;
  onRetry: ((id: string) => void) | undefined;
}) {
  const mine = m.from === 'me';
  return (
    <li className={`flex ${mine ? 'justify-end' : 'justify-start'}`}>
      <div
        className={`max-w-[85%] rounded-2xl px-3.5 py-2 shadow-sm sm:max-w-[70%] ${
          mine ? 'rounded-br-md bg-indigo-700 text-white' : 'rounded-bl-md border border-slate-200 bg-white text-slate-900'
        }`}
      >
        <span className="sr-only">{mine ? 'You:' : `${partnerName}:`} </span>
        <p className="break-words whitespace-pre-wrap">{m.text}</p>
        <p className={`mt-0.5 flex justify-end gap-2 text-xs ${mine ? 'text-indigo-100' : 'text-slate-600'}`}>
          <time dateTime={new Date(m.sentAt).toISOString()}>{timeFormat.format(m.sentAt)}</time>
          {mine && (
            <span data-status={m.status} className={m.status === 'failed' ? 'font-semibold text-amber-200' : undefined}>
              {statusText(m)}
            </span>
          )}
          {mine && m.status === 'failed' && onRetry && (
            <button
              type="button"
              onClick={() => onRetry(m.id)}
              aria-label={`Retry sending ${quoteMessage(m.text)}`}
              className={`rounded font-semibold text-white underline underline-offset-2 hover:text-indigo-100 ${focusRing}`}
            >
              Retry
            </button>
          )}
        </p>
      </div>
    </li>
  );
});

/**
 * The conversation. New messages are announced politely (role log) and scroll into view only
 * when the reader is at the bottom or sent them; otherwise a "New messages" pill waits.
 */
export const MessageList = memo(function MessageList({
  messages,
  partnerName,
  onRetry,
  children,
}: {
  messages: MessageEntry[];
  partnerName: string;
  /** Sends a message that was not sent again; given while it can be (in the chat, both connected). */
  onRetry?: (id: string) => void;
  children?: ReactNode;
}) {
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
    // Only a new last message matters here, not a change of following.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [last?.id, last?.from, toBottom]);

  function onScroll() {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= STICKY_PX;
    if (atBottom || following) setSeenCount(messages.length);
    setFollowing(atBottom);
  }

  return (
    <div className="relative min-h-0 flex-1">
      {/* Focusable, so that a long conversation can be scrolled from the keyboard too. */}
      <div
        ref={scroller}
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-label="Messages"
        className="h-full overflow-y-auto overscroll-contain px-3 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-700 sm:px-4"
      >
        {children}
        <div role="log" aria-live="polite" aria-relevant="additions" aria-label={`Conversation with ${partnerName}`}>
          <ol className="grid gap-2">
            {messages.map((m) => (
              <MessageRow key={`${m.from}-${m.id}`} message={m} partnerName={partnerName} onRetry={onRetry ? retry : undefined} />
            ))}
          </ol>
        </div>
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
