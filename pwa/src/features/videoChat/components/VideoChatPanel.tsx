import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { MessageStatusAnnouncer } from '../../../components/MessageStatusAnnouncer';
import { quoteMessage, statusText } from '../../../lib/conversation';
import type { VideoMessage } from '../videoChatSlice';

const time = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** The text chat beside the video: messages, typing indicator and the composer (Enter sends). */
export function VideoChatPanel({
  messages,
  partnerTyping,
  canSend,
  onSend,
  onTyping,
  onRetry,
}: {
  messages: VideoMessage[];
  partnerTyping: boolean;
  canSend: boolean;
  onSend: (text: string) => Promise<boolean>;
  onTyping: (typing: boolean) => void;
  /** Sends a message that was not sent again (given while that can be done). */
  onRetry?: (id: string) => void;
}) {
  const [draft, setDraft] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const stick = useRef(true);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    // Follow new messages unless the user scrolled up to read older ones.
    const el = list.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [messages.length, partnerTyping]);

  useEffect(
    () => () => {
      if (typingTimer.current) clearTimeout(typingTimer.current);
    },
    [],
  );

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const text = draft;
    if (!text.trim() || !canSend) return;
    setDraft('');
    onTyping(false);
    stick.current = true;
    if (!(await onSend(text))) setDraft((d) => d || text);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void submit();
    }
  };

  const onChange = (value: string) => {
    setDraft(value);
    onTyping(value.length > 0);
    if (typingTimer.current) clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(() => onTyping(false), 3000);
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ol
        ref={list}
        aria-label="Messages"
        aria-live="polite"
        // New messages only: status changes are told by the status line below (MessageStatusAnnouncer).
        aria-relevant="additions"
        // Focusable, so that a long conversation can be scrolled from the keyboard too.
        tabIndex={0}
        className="min-h-0 flex-1 space-y-2 overflow-y-auto p-3 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-white"
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {messages.map((m) => (
          <li key={`${m.from}-${m.id}`} className={`flex flex-col ${m.from === 'me' ? 'items-end' : 'items-start'}`}>
            <span
              className={`max-w-[85%] whitespace-pre-wrap break-words rounded-2xl px-3 py-2 ${m.from === 'me' ? 'bg-indigo-600 text-white' : 'bg-slate-700 text-white'}`}
            >
              <span className="sr-only">{m.from === 'me' ? 'You: ' : 'Stranger: '}</span>
              {m.text}
            </span>
            <span className="mt-0.5 text-xs text-slate-300">
              {time(m.sentAt)}
              {m.from === 'me' ? ` · ${statusText(m)}` : ''}
              {m.from === 'me' && m.status === 'failed' && onRetry && (
                <>
                  {' · '}
                  <button
                    type="button"
                    onClick={() => {
                      onRetry(m.id);
                      // The button goes with the failure: focus stays in the conversation.
                      list.current?.focus();
                    }}
                    aria-label={`Retry sending ${quoteMessage(m.text)}`}
                    className="rounded font-semibold text-white underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-white"
                  >
                    Retry
                  </button>
                </>
              )}
            </span>
          </li>
        ))}
        {partnerTyping && <li className="text-sm italic text-slate-300">Stranger is typing…</li>}
      </ol>
      <MessageStatusAnnouncer messages={messages} canRetry={onRetry !== undefined} />
      <form onSubmit={(e) => void submit(e)} className="flex gap-2 border-t border-slate-700 p-2">
        <label htmlFor="video-chat-message" className="sr-only">
          Message
        </label>
        <textarea
          id="video-chat-message"
          rows={1}
          value={draft}
          disabled={!canSend}
          placeholder={canSend ? 'Say hello…' : 'Chat opens when you meet someone'}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          className="min-h-11 flex-1 resize-none rounded-xl bg-slate-800 px-3 py-2 text-white placeholder:text-slate-400 disabled:opacity-60"
        />
        <button
          type="submit"
          disabled={!canSend || !draft.trim()}
          className="min-h-11 rounded-xl bg-indigo-600 px-4 font-semibold text-white disabled:opacity-50"
        >
          Send
        </button>
      </form>
    </div>
  );
}
