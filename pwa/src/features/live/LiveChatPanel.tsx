import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { RoomMessage } from '@parley/contract/rooms';
import { EmojiPicker } from '../../components/conversation/EmojiPicker';
import { EmojiText } from '../../components/conversation/EmojiText';
/** Chat lines beside a video are short; the server's limit is larger. */
const LIVE_CHAT_MAX_CHARS = 500;
import { ReportAction } from '../../components/conversation/ReportAction';
import type { ReportChoice } from '../../realtime/reportEvidence';
import { useBlockedPeople } from '../../app/api';
import type { useLiveChat } from './useLiveChat';

type Chat = ReturnType<typeof useLiveChat>;

/** A message's text with the custom emoji the server checked its sender owns. */
function LiveText({ m }: { m: RoomMessage }) {
  const verified = useMemo(() => m.emoji && new Set(m.emoji), [m.emoji]);
  return <EmojiText text={m.text} verified={verified} />;
}
const ring = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

/**
 * The stream's chat beside the video. A moderator (the broadcaster or someone they appointed) can
 * delete a message and mute or ban its author; the broadcaster can also appoint moderators.
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
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [picker, setPicker] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const end = useRef<HTMLLIElement>(null);
  // Someone this user blocked says nothing here any more, including what is already on screen.
  const blocked = useBlockedPeople();
  const { messages: all, pending } = chat.state;
  // A removed message leaves a stream's chat altogether (a stream has no threads to keep in place).
  const messages = useMemo(() => all.filter((m) => !m.deleted && !blocked.has(m.senderId)), [all, blocked]);
  const isBroadcaster = me === broadcasterId;
  const canModerate = isBroadcaster || chat.moderators.includes(me);
  useEffect(() => end.current?.scrollIntoView?.({ block: 'end' }), [messages.length, pending.length]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const t = text.trim();
    if (!t || !chat.room) return;
    // Sent now, or kept and sent again once the connection is back: it shows as sending meanwhile.
    chat.room.send(t);
    setProblem(null);
    setText('');
  };
  const run = (p: Promise<string | null>) => void p.then(setProblem);

  return (
    <section aria-label="Stream chat" className="flex min-h-0 flex-col rounded-xl bg-slate-900 text-white">
      <h2 className="px-3 pt-3 text-sm font-semibold text-slate-200">Chat</h2>
      <ul className="min-h-40 flex-1 space-y-2 overflow-y-auto p-3" aria-live="polite" aria-relevant="additions" data-testid="live-chat">
        {messages.map((m) => (
          <li key={m.id} className="text-sm wrap-anywhere">
            <span
              className={
                m.senderId === broadcasterId
                  ? 'font-bold text-amber-300'
                  : chat.moderators.includes(m.senderId)
                    ? 'font-bold text-emerald-300'
                    : 'font-bold text-sky-300'
              }
            >
              {m.senderName}
            </span>{' '}
            {m.gift !== undefined ? (
              <span className="font-semibold text-amber-300" data-testid="live-gift">
                <span aria-hidden="true">🎁 </span>
                {m.text}
              </span>
            ) : (
              <span>
                <LiveText m={m} />
              </span>
            )}
            {onReport && m.senderId !== me && m.gift === undefined && (
              <span className="ml-2 inline-flex">
                <ReportAction
                  tone="dark"
                  partnerName={m.senderName}
                  subject={`${m.senderName}'s message`}
                  evidence="This message and the chat around it go with the report, so our team can see what happened."
                  onSend={(choice) => onReport(m, choice)}
                />
              </span>
            )}
            {canModerate && m.senderId !== me && m.senderId !== broadcasterId && (
              <span className="ml-2 inline-flex flex-wrap gap-1">
                <button
                  type="button"
                  className={`rounded bg-slate-700 px-2 py-1 text-xs ${ring}`}
                  onClick={() => void chat.room?.remove(m.id)}
                  aria-label={`Delete message from ${m.senderName}`}
                >
                  Delete
                </button>
                <button
                  type="button"
                  className={`rounded bg-slate-700 px-2 py-1 text-xs ${ring}`}
                  onClick={() => run(chat.mute(m.senderId, true))}
                  aria-label={`Mute ${m.senderName}`}
                >
                  Mute
                </button>
                <button
                  type="button"
                  className={`rounded bg-red-800 px-2 py-1 text-xs ${ring}`}
                  onClick={() => run(chat.ban(m.senderId))}
                  aria-label={`Ban ${m.senderName}`}
                >
                  Ban
                </button>
                {isBroadcaster && (
                  <button
                    type="button"
                    className={`rounded bg-slate-700 px-2 py-1 text-xs ${ring}`}
                    onClick={() => run(chat.appoint(m.senderId, !chat.moderators.includes(m.senderId)))}
                    aria-label={`${chat.moderators.includes(m.senderId) ? 'Remove' : 'Make'} ${m.senderName} ${chat.moderators.includes(m.senderId) ? 'as moderator' : 'a moderator'}`}
                  >
                    {chat.moderators.includes(m.senderId) ? 'Unmod' : 'Mod'}
                  </button>
                )}
              </span>
            )}
          </li>
        ))}
        {pending.map((p) => (
          <li key={p.clientId} className="text-sm wrap-anywhere text-slate-300" data-testid="live-pending">
            <span className="font-bold text-sky-300">You</span> {p.text}{' '}
            {p.status === 'sending' ? (
              <span className="text-xs text-slate-400">Sending…</span>
            ) : (
              <span className="inline-flex items-center gap-2 text-xs text-amber-200">
                {p.problem ?? 'Not sent yet: it goes once you are back online.'}
                {p.problem && (
                  <button type="button" className={`rounded bg-slate-700 px-2 py-1 ${ring}`} onClick={() => chat.room?.retry(p.clientId)}>
                    Retry
                  </button>
                )}
              </span>
            )}
          </li>
        ))}
        <li ref={end} aria-hidden="true" />
      </ul>
      {problem && (
        <p role="alert" className="mx-3 rounded bg-amber-100 p-2 text-sm text-amber-950">
          {problem}
        </p>
      )}
      {chat.muted ? (
        <p className="p-3 text-sm text-slate-200">A moderator muted you in this chat.</p>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="relative flex gap-2 p-3">
          <label className="sr-only" htmlFor="live-chat-input">
            Message the stream
          </label>
          <input
            id="live-chat-input"
            ref={input}
            value={text}
            maxLength={LIVE_CHAT_MAX_CHARS}
            onChange={(e) => setText(e.target.value)}
            placeholder="Say something"
            className={`min-h-11 min-w-0 flex-1 rounded-lg bg-slate-800 px-3 text-white placeholder:text-slate-400 ${ring}`}
          />
          <button
            type="button"
            aria-label="Emoji"
            aria-expanded={picker}
            aria-controls={picker ? 'live-chat-emoji' : undefined}
            onClick={() => setPicker(!picker)}
            className={`grid size-11 shrink-0 place-items-center rounded-lg bg-slate-800 text-xl ${ring}`}
          >
            <span aria-hidden="true">🙂</span>
          </button>
          {picker && (
            <EmojiPicker
              id="live-chat-emoji"
              onPick={(emoji) => setText((t) => `${t}${emoji}`.slice(0, LIVE_CHAT_MAX_CHARS))}
              onClose={() => {
                setPicker(false);
                input.current?.focus();
              }}
            />
          )}
          <button type="submit" className={`min-h-11 rounded-lg bg-indigo-600 px-4 font-semibold ${ring}`}>
            Send
          </button>
        </form>
      )}
    </section>
  );
}
