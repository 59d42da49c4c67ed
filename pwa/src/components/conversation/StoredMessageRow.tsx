import { memo, useMemo, useState } from 'react';
import type { RoomMessage } from '@parley/contract/rooms';
import { focusRing } from '../FormField';
import { RevealedText } from './RevealedText';
import { DisplayName } from '../people/DisplayName';
import { EmojiText } from './EmojiText';
import { ReportAction } from './ReportAction';
import type { ReportChoice } from '../../realtime/reportEvidence';

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayTimeFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
/** Standard emoji for reactions (custom emoji come with the store). */
const QUICK_REACTIONS = ['👍', '❤️', '😂', '🎉', '😮', '😢'] as const;
/** How long a moderator may mute someone for, from a message's actions. */
const MUTES = [
  [10, '10 min'],
  [60, '1 hour'],
  [24 * 60, '1 day'],
] as const;

const small = `rounded px-2 py-1 text-sm font-medium text-indigo-800 hover:bg-indigo-50 ${focusRing}`;

export type MessageActions = {
  onReply(m: RoomMessage): void;
  onReact(m: RoomMessage, emoji: string, on: boolean): void;
  onEdit(m: RoomMessage, text: string): Promise<boolean>;
  onDelete(m: RoomMessage): void;
  /** Given to the owner and moderators of a group: what they may do to the author (`minutes`: how long a mute lasts). */
  onModerate?: ((m: RoomMessage, action: 'mute' | 'kick' | 'ban', minutes?: number) => void) | undefined;
  /** Reports someone else's message (the server attaches the messages around it); rejects with a readable Error. */
  onReport?: ((m: RoomMessage, choice: ReportChoice) => Promise<void>) | undefined;
};

/** One stored message with its reply quote, reactions and actions; memoised so a new message renders only its own row. */
export const StoredMessageRow = memo(function StoredMessageRow({
  message: m,
  myId,
  canModerate,
  seenBy,
  actions,
}: {
  message: RoomMessage;
  myId: string;
  /** The viewer moderates the room and outranks the author. */
  canModerate: boolean;
  /** Receipt under our last message in a direct room: who has read it. */
  seenBy: string | null;
  actions: MessageActions;
}) {
  const mine = m.senderId === myId;
  // The shortcodes the server checked the sender owned when they wrote it (ours included): the rest stay text.
  const verified = useMemo(() => m.emoji && new Set(m.emoji), [m.emoji]);
  const mentionsMe = m.mentions.includes(myId);
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const old = Date.now() - m.sentAt > 20 * 3600 * 1000;
  const actionsId = `msg-${m.id}-actions`;

  return (
    <li data-message-id={m.id} className={`group flex ${mine ? 'justify-end' : 'justify-start'}`}>
      <div
        className={`max-w-[85%] rounded-2xl px-3.5 py-2 shadow-sm sm:max-w-[70%] ${
          mine ? 'rounded-br-md bg-indigo-700 text-white' : 'rounded-bl-md border border-slate-200 bg-white text-slate-900'
        } ${mentionsMe ? 'ring-2 ring-amber-500' : ''}`}
      >
        <p className={`text-xs font-semibold ${mine ? 'text-indigo-100' : 'text-indigo-800'}`}>
          {mine ? 'You' : <DisplayName name={m.senderName} style={m.senderStyle} />}
          {mentionsMe && <span className="ml-2 rounded bg-amber-100 px-1 text-amber-900">mentioned you</span>}
        </p>
        {m.replyTo && (
          <blockquote
            className={`my-1 border-l-4 pl-2 text-sm wrap-anywhere ${mine ? 'border-indigo-300 text-indigo-50' : 'border-slate-300 text-slate-700'}`}
          >
            <span className="font-semibold">{m.replyTo.senderName}: </span>
            {m.replyTo.text ? <RevealedText text={m.replyTo.text} /> : <em>message deleted</em>}
          </blockquote>
        )}
        {m.deleted ? (
          <p className={`italic ${mine ? 'text-indigo-100' : 'text-slate-600'}`}>This message was deleted.</p>
        ) : editing !== null ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (!editing.trim()) return;
              void actions.onEdit(m, editing).then((ok) => ok && setEditing(null));
            }}
            className="mt-1 grid gap-2"
          >
            <label className="sr-only" htmlFor={`edit-${m.id}`}>
              Edit message
            </label>
            <textarea
              id={`edit-${m.id}`}
              value={editing}
              autoFocus
              onChange={(e) => setEditing(e.target.value)}
              onKeyDown={(e) => e.key === 'Escape' && setEditing(null)}
              className="min-h-11 rounded border border-slate-400 bg-white px-2 py-1 text-slate-900"
            />
            <div className="flex gap-2">
              <button type="submit" className={`rounded bg-white px-3 py-1 text-sm font-semibold text-indigo-800 ${focusRing}`}>
                Save
              </button>
              <button type="button" onClick={() => setEditing(null)} className={`rounded px-3 py-1 text-sm underline ${focusRing}`}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <p dir="auto" className="whitespace-pre-wrap wrap-anywhere">
            <EmojiText text={m.text} verified={verified} />
          </p>
        )}
        {m.reactions.length > 0 && (
          <ul className="mt-1 flex flex-wrap gap-1" aria-label="Reactions">
            {m.reactions.map((r) => {
              const reacted = r.userIds.includes(myId);
              return (
                <li key={r.emoji}>
                  <button
                    type="button"
                    aria-pressed={reacted}
                    aria-label={`${r.emoji} ${r.userIds.length}${reacted ? ', yours: remove' : ': add yours'}`}
                    onClick={() => actions.onReact(m, r.emoji, !reacted)}
                    className={`rounded-full border px-2 py-0.5 text-sm ${
                      reacted ? 'border-indigo-400 bg-indigo-100 text-indigo-950' : 'border-slate-300 bg-slate-50 text-slate-900'
                    } ${focusRing}`}
                  >
                    {r.emoji} {r.userIds.length}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <p className={`mt-0.5 flex items-center justify-end gap-2 text-xs ${mine ? 'text-indigo-100' : 'text-slate-600'}`}>
          {m.editedAt && !m.deleted && <span>edited</span>}
          <time dateTime={new Date(m.sentAt).toISOString()}>{(old ? dayTimeFormat : timeFormat).format(m.sentAt)}</time>
          {seenBy && <span>Seen</span>}
          {!m.deleted && (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={actionsId}
              aria-label={`Actions for ${mine ? 'your message' : `${m.senderName}'s message`}`}
              onClick={() => setOpen(!open)}
              className={`rounded px-1.5 font-bold ${mine ? 'text-white' : 'text-slate-700'} ${focusRing}`}
            >
              ⋯
            </button>
          )}
        </p>
        {open && !m.deleted && (
          <div id={actionsId} className="mt-1 flex flex-wrap items-center gap-1 rounded-lg bg-white p-1 text-slate-900 shadow">
            <button type="button" className={small} onClick={() => (setOpen(false), actions.onReply(m))}>
              Reply
            </button>
            {QUICK_REACTIONS.map((e) => (
              <button
                key={e}
                type="button"
                aria-label={`React ${e}`}
                className={small}
                onClick={() => (setOpen(false), actions.onReact(m, e, true))}
              >
                {e}
              </button>
            ))}
            {mine && (
              <button type="button" className={small} onClick={() => (setOpen(false), setEditing(m.text))}>
                Edit
              </button>
            )}
            {(mine || canModerate) && (
              <button type="button" className={small} onClick={() => (setOpen(false), actions.onDelete(m))}>
                Delete
              </button>
            )}
            {!mine && actions.onReport && (
              <ReportAction
                tone="menu"
                partnerName={m.senderName}
                subject={`${m.senderName}'s message`}
                evidence="This message and the ones around it go with the report, so our team can see what happened."
                onSend={(choice) => actions.onReport!(m, choice)}
              />
            )}
            {canModerate && !mine && actions.onModerate && (
              <>
                {MUTES.map(([minutes, label]) => (
                  <button
                    key={minutes}
                    type="button"
                    className={small}
                    onClick={() => (setOpen(false), actions.onModerate!(m, 'mute', minutes))}
                  >
                    Mute {m.senderName} {label}
                  </button>
                ))}
                <button type="button" className={small} onClick={() => (setOpen(false), actions.onModerate!(m, 'kick'))}>
                  Kick {m.senderName}
                </button>
                <button type="button" className={small} onClick={() => (setOpen(false), actions.onModerate!(m, 'ban'))}>
                  Ban {m.senderName}
                </button>
              </>
            )}
          </div>
        )}
      </div>
    </li>
  );
});
