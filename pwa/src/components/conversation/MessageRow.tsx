import { memo, useMemo, useState } from 'react';
import type { RoomMessage } from '@parley/contract/rooms';
import { focusRing } from '../ui/buttonStyles';
import { RevealedText } from './RevealedText';
import { DisplayName } from '../people/DisplayName';
import { LinkedText, type LinkMode } from './LinkedText';
import { LinkPreviewCard, type LoadLinkPreview } from './LinkPreviewCard';
import { findLinks } from '@parley/contract/links';
import { ReportAction } from './ReportAction';
import { PictureAttachment } from './PictureAttachment';
import { MediaImage } from './MediaImage';
import { VoicePlayer } from './VoicePlayer';
import { TranslateMessage } from './TranslateMessage';
import type { ReportChoice } from '../../realtime/reportEvidence';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';

// In the interface language's conventions (Lingui keeps one formatter per locale and options).
const timeFormat = { hour: '2-digit', minute: '2-digit' } as const;
const dayTimeFormat = { weekday: 'short', hour: '2-digit', minute: '2-digit' } as const;
/** Standard emoji for reactions (custom emoji come with the store). */
const QUICK_REACTIONS = ['👍', '❤️', '😂', '🎉', '😮', '😢'] as const;

/**
 * How a conversation looks where it stands: a whole page (comfortable bubbles, actions behind a
 * "⋯" menu) or a compact dark panel beside a video (one line per message, actions beside it).
 */
export type ConversationLook = 'page' | 'panel';

/** The author's standing, where the conversation shows it (the stream's broadcaster, its moderators). */
export type SenderRole = 'host' | 'moderator' | null;

/** Something a moderator may do to a message's author (mute, kick, ban, appoint), decided by the page. */
export type ModeratorAction = {
  /** What the button says. */
  label: string;
  /** Its accessible name, when the label alone does not say whom it acts on. */
  name?: string;
  danger?: boolean;
  run(): void;
};

/**
 * How far one of our messages got, where the conversation says so message by message (a 1:1 chat
 * with a stranger: sent, then delivered once the partner's page showed it) and the words for it.
 */
export type Delivery = { status: 'sent' | 'delivered'; text: string };

/** A message as the view draws it: a stored one, or one of a 1:1 chat with how far it got. */
export type ShownMessage = RoomMessage & { delivery?: Delivery };

/** What a message offers. Absent handlers are absent buttons: a stream's chat has no replies, reactions or edits. */
export type MessageActions = {
  onReply?: ((m: RoomMessage) => void) | undefined;
  onReact?: ((m: RoomMessage, emoji: string, on: boolean) => void) | undefined;
  /** Edits our own message; resolves true once saved. */
  onEdit?: ((m: RoomMessage, text: string) => Promise<boolean>) | undefined;
  /** Deletes a message for everyone: offered on our own messages when `deleteOwn`, and on those we moderate. */
  onDelete?: ((m: RoomMessage) => void) | undefined;
  deleteOwn?: boolean | undefined;
  /** Reports someone else's message (the server attaches the messages around it); rejects with a readable Error. */
  onReport?: ((m: RoomMessage, choice: ReportChoice) => Promise<void>) | undefined;
  /** The moderator's actions on a message's author, given only where the viewer may take them. */
  moderation?: ((m: RoomMessage) => ModeratorAction[]) | undefined;
  /** Group rooms: opens the message's thread (to read it, or to reply in it). */
  onThread?: ((m: RoomMessage) => void) | undefined;
};

const TONES = {
  page: {
    item: (mine: boolean) => `flex ${mine ? 'justify-end' : 'justify-start'}`,
    bubble: (mine: boolean) =>
      `max-w-[85%] rounded-2xl px-3.5 py-2 shadow-sm sm:max-w-[70%] ${
        mine ? 'rounded-ee-md bg-indigo-700 text-white' : 'rounded-es-md border border-slate-200 bg-white text-slate-900'
      }`,
    name: (mine: boolean) => `text-xs font-semibold ${mine ? 'text-indigo-100' : 'text-indigo-800'}`,
    quiet: (mine: boolean) => (mine ? 'text-indigo-100' : 'text-slate-600'),
    quote: (mine: boolean) => (mine ? 'border-indigo-300 text-indigo-50' : 'border-slate-300 text-slate-700'),
    gift: 'font-semibold',
    menuButton: (mine: boolean) => `rounded px-1.5 font-bold ${mine ? 'text-white' : 'text-slate-700'}`,
    ring: focusRing,
  },
  panel: {
    item: () => 'text-sm',
    bubble: () => 'min-w-0 text-slate-100',
    name: () => 'font-bold',
    quiet: () => 'text-slate-300',
    quote: () => 'border-slate-500 text-slate-300',
    gift: 'font-semibold text-amber-300',
    menuButton: () => 'rounded px-1.5 font-bold text-slate-200',
    ring: 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white',
  },
} as const;

/** Author names beside a video are coloured by standing, as streams' chats do. */
const PANEL_NAME: Record<'host' | 'moderator' | 'none', string> = {
  host: 'text-amber-300',
  moderator: 'text-emerald-300',
  none: 'text-sky-300',
};

/**
 * One message of a conversation (group, direct or a stream's chat) with its reply quote, gift,
 * reactions, receipt and actions; memoised so a new message renders only its own row.
 */
export const MessageRow = memo(function MessageRow({
  message: m,
  myId,
  canModerate,
  seenBy,
  actions,
  look = 'page',
  role = null,
  nameShown = true,
  links = 'guarded',
  linkPreview,
  highlighted = false,
  threadUnread = 0,
}: {
  message: ShownMessage;
  myId: string;
  /** The viewer moderates the conversation and outranks the author: they may delete the message. */
  canModerate: boolean;
  /** Receipt under our last message in a direct room: who has read it. */
  seenBy: string | null;
  actions: MessageActions;
  look?: ConversationLook;
  role?: SenderRole;
  /** On a page, the author's name heads the message; a 1:1 chat only tells screen readers who wrote it. */
  nameShown?: boolean;
  /** Whether its links are links at once, or text with an "Open link" (a stranger's). */
  links?: LinkMode;
  /** Where the conversation previews links (direct and group rooms): the preview of this message's first link. */
  linkPreview?: LoadLinkPreview | undefined;
  /** The message a search led to: outlined, and focused by the view. */
  highlighted?: boolean;
  /** Its thread's replies this user has not read (threads they follow). */
  threadUnread?: number;
}) {
  const t = TONES[look];
  const { i18n } = useLingui();
  const mine = m.senderId === myId;
  // The shortcodes the server checked the sender owned when they wrote it (ours included): the rest stay text.
  const verified = useMemo(() => m.emoji && new Set(m.emoji), [m.emoji]);
  const mentionsMe = m.mentions.includes(myId);
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const old = Date.now() - m.sentAt > 20 * 3600 * 1000;
  const actionsId = `msg-${m.id}-actions`;
  const isGift = m.gift !== undefined;
  const hasLink = useMemo(() => findLinks(m.text).length > 0, [m.text]);
  const linkClass = look === 'panel' ? 'text-sky-300' : mine ? 'text-white' : 'text-indigo-800';
  const small =
    look === 'page'
      ? `rounded px-2 py-1 text-sm font-medium text-indigo-800 hover:bg-indigo-50 ${t.ring}`
      : `rounded bg-slate-700 px-2 py-1 text-xs text-white hover:bg-slate-600 ${t.ring}`;
  const danger = look === 'page' ? small : `rounded bg-red-800 px-2 py-1 text-xs text-white hover:bg-red-700 ${t.ring}`;
  // Beside a video every action is one tap away; on a page they wait behind the message's menu.
  const close = () => look === 'page' && setOpen(false);

  const moderation = !m.deleted && !mine ? (actions.moderation?.(m) ?? []) : [];
  const canDelete = !m.deleted && !!actions.onDelete && ((mine && !!actions.deleteOwn) || (!mine && canModerate));
  const canReport = !m.deleted && !mine && !isGift && !!actions.onReport;
  const canEdit = !m.deleted && mine && !isGift && !!actions.onEdit;
  const canReply = !m.deleted && !!actions.onReply;
  const canReact = !m.deleted && !!actions.onReact;
  // A thread hangs from a message of the room itself, never from a reply in a thread.
  const canThread = !m.deleted && !!actions.onThread && m.threadId === undefined;
  // Someone else's words may be read in the viewer's language (when the server translates).
  const canTranslate = !m.deleted && !mine && !isGift && !!m.text;
  const hasActions = canDelete || canReport || canEdit || canReply || canReact || canThread || moderation.length > 0;

  const actionButtons = (
    <>
      {canReply && (
        <button type="button" className={small} onClick={() => (close(), actions.onReply!(m))}>
          <Trans>Reply</Trans>
        </button>
      )}
      {canThread && (
        <button type="button" className={small} onClick={() => (close(), actions.onThread!(m))}>
          <Trans>Reply in thread</Trans>
        </button>
      )}
      {canReact &&
        QUICK_REACTIONS.map((e) => (
          <button
            key={e}
            type="button"
            aria-label={i18n._(msg`React ${e}`)}
            className={small}
            onClick={() => (close(), actions.onReact!(m, e, true))}
          >
            {e}
          </button>
        ))}
      {canEdit && (
        <button type="button" className={small} onClick={() => (close(), setEditing(m.text))}>
          <Trans>Edit</Trans>
        </button>
      )}
      {canDelete && (
        <button
          type="button"
          className={small}
          aria-label={mine ? undefined : i18n._(msg`Delete message from ${m.senderName}`)}
          onClick={() => (close(), actions.onDelete!(m))}
        >
          <Trans>Delete</Trans>
        </button>
      )}
      {canReport && (
        <ReportAction
          tone={look === 'page' ? 'menu' : 'dark'}
          partnerName={m.senderName}
          subject={i18n._(msg`${m.senderName}'s message`)}
          evidence={
            look === 'page'
              ? i18n._(msg`This message and the ones around it go with the report, so our team can see what happened.`)
              : i18n._(msg`This message and the chat around it go with the report, so our team can see what happened.`)
          }
          onSend={(choice) => actions.onReport!(m, choice)}
        />
      )}
      {moderation.map((a) => (
        <button
          key={a.name ?? a.label}
          type="button"
          className={a.danger ? danger : small}
          aria-label={a.name}
          onClick={() => (close(), a.run())}
        >
          {a.label}
        </button>
      ))}
    </>
  );

  const name =
    look === 'panel' ? (
      <span className={`${t.name(mine)} ${PANEL_NAME[role ?? 'none']}`}>{mine ? i18n._(msg`You`) : m.senderName}</span>
    ) : (
      <span className={t.name(mine)}>{mine ? i18n._(msg`You`) : <DisplayName name={m.senderName} style={m.senderStyle} />}</span>
    );

  const body = m.deleted ? (
    <span className={`italic ${t.quiet(mine)}`}>
      <Trans>This message was deleted.</Trans>
    </span>
  ) : editing !== null ? (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!editing.trim()) return;
        void actions.onEdit!(m, editing).then((ok) => ok && setEditing(null));
      }}
      className="mt-1 grid gap-2"
    >
      <label className="sr-only" htmlFor={`edit-${m.id}`}>
        <Trans>Edit message</Trans>
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
        <button type="submit" className={`rounded bg-white px-3 py-1 text-sm font-semibold text-indigo-800 ${t.ring}`}>
          <Trans>Save</Trans>
        </button>
        <button type="button" onClick={() => setEditing(null)} className={`rounded px-3 py-1 text-sm underline ${t.ring}`}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </form>
  ) : isGift ? (
    <span className={t.gift} data-testid="live-gift">
      <span aria-hidden="true">🎁 </span>
      {m.text}
    </span>
  ) : (
    <span dir="auto" className="whitespace-pre-wrap wrap-anywhere">
      <LinkedText text={m.text} verified={verified} mode={links} linkClass={linkClass} />
    </span>
  );

  const a = !m.deleted && editing === null ? m.attachment : undefined;
  const sticker = !m.deleted && editing === null ? m.media : undefined;
  const attachment = sticker ? (
    <MediaImage media={sticker} />
  ) : a?.kind === 'image' ? (
    <PictureAttachment attachment={a} senderId={m.senderId} senderName={m.senderName} mine={mine} />
  ) : a?.kind === 'voice' ? (
    <VoicePlayer
      url={a.url}
      durationMs={a.durationMs ?? 0}
      label={mine ? i18n._(msg`Your voice message`) : i18n._(msg`Voice message from ${m.senderName}`)}
      tone={mine && look === 'page' ? 'dark' : 'light'}
    />
  ) : null;

  const quote = m.replyTo && (
    <blockquote className={`my-1 border-s-4 ps-2 text-sm wrap-anywhere ${t.quote(mine)}`}>
      <span className="font-semibold">{m.replyTo.senderName}: </span>
      {m.replyTo.text ? <RevealedText text={m.replyTo.text} /> : <em>{i18n._(msg`message deleted`)}</em>}
    </blockquote>
  );

  const reactions = m.reactions.length > 0 && (
    <ul className="mt-1 flex flex-wrap gap-1" aria-label={i18n._(msg`Reactions`)}>
      {m.reactions.map((r) => {
        const reacted = r.userIds.includes(myId);
        return (
          <li key={r.emoji}>
            <button
              type="button"
              aria-pressed={reacted}
              aria-label={
                reacted
                  ? i18n._(msg`${r.emoji} ${r.userIds.length}, yours: remove`)
                  : i18n._(msg`${r.emoji} ${r.userIds.length}: add yours`)
              }
              disabled={!actions.onReact}
              onClick={() => actions.onReact?.(m, r.emoji, !reacted)}
              className={`rounded-full border px-2 py-0.5 text-sm ${
                reacted ? 'border-indigo-400 bg-indigo-100 text-indigo-950' : 'border-slate-300 bg-slate-50 text-slate-900'
              } ${t.ring}`}
            >
              {r.emoji} {r.userIds.length}
            </button>
          </li>
        );
      })}
    </ul>
  );

  const preview = linkPreview && hasLink && !m.deleted && !isGift && editing === null && (
    <LinkPreviewCard messageId={m.id} version={m.editedAt ?? 0} load={linkPreview} mine={mine} />
  );

  // The thread's summary under its root: opens the thread.
  const thread = m.thread && actions.onThread && m.threadId === undefined && (
    <button
      type="button"
      data-thread-button
      onClick={() => actions.onThread!(m)}
      className={`mt-1 flex flex-wrap items-center gap-x-2 rounded text-start text-sm font-semibold underline ${mine && look === 'page' ? 'text-white' : 'text-indigo-800'} ${t.ring}`}
    >
      <span>
        <Plural value={m.thread.replies} one="# reply" other="# replies" />
      </span>
      <span className={`font-normal no-underline ${t.quiet(mine)}`}>
        <Trans>
          Last reply{' '}
          {i18n.date(new Date(m.thread.lastReplyAt), Date.now() - m.thread.lastReplyAt > 20 * 3600 * 1000 ? dayTimeFormat : timeFormat)}
        </Trans>
      </span>
      {threadUnread > 0 && (
        <span className="rounded-full bg-red-700 px-2 text-xs text-white no-underline">
          <Plural value={threadUnread} one="# new" other="# new" />
        </span>
      )}
    </button>
  );

  const d = mine ? m.delivery : undefined;
  const delivery = d && <span data-status={d.status}>{d.text}</span>;

  const mention = mentionsMe && (
    <span className="ms-2 rounded bg-amber-100 px-1 text-xs text-amber-900">
      <Trans>mentioned you</Trans>
    </span>
  );

  if (look === 'panel')
    return (
      <li data-message-id={m.id} className={t.item(mine)}>
        <div className={`wrap-anywhere ${t.bubble(mine)} ${mentionsMe ? 'rounded ring-2 ring-amber-400' : ''}`}>
          {quote}
          {name}
          {mention} {body}
          {canTranslate && editing === null && <TranslateMessage text={m.text} quiet={t.quiet(mine)} />}
          {attachment}
          {preview}
          {m.editedAt && !m.deleted && (
            <span className={`ms-1 text-xs ${t.quiet(mine)}`}>
              <Trans>(edited)</Trans>
            </span>
          )}
          {seenBy && (
            <span className={`ms-1 text-xs ${t.quiet(mine)}`}>
              <Trans>Seen</Trans>
            </span>
          )}
          {delivery && <span className={`ms-2 inline-flex flex-wrap gap-2 text-xs ${t.quiet(mine)}`}>{delivery}</span>}
          {reactions}
          {hasActions && <span className="ms-2 inline-flex flex-wrap gap-1 align-middle">{actionButtons}</span>}
        </div>
      </li>
    );

  return (
    <li
      data-message-id={m.id}
      data-highlighted={highlighted || undefined}
      tabIndex={highlighted ? -1 : undefined}
      className={`group ${t.item(mine)} focus-visible:outline-none`}
    >
      <div className={`${t.bubble(mine)} ${highlighted ? 'ring-4 ring-amber-400' : mentionsMe ? 'ring-2 ring-amber-500' : ''}`}>
        {nameShown ? (
          <p>
            {name}
            {mention}
          </p>
        ) : (
          <span className="sr-only">{mine ? i18n._(msg`You:`) : i18n._(msg`${m.senderName}:`)} </span>
        )}
        {quote}
        {attachment}
        {editing !== null ? body : (m.text || m.deleted || !attachment) && <p>{body}</p>}
        {canTranslate && editing === null && <TranslateMessage text={m.text} quiet={t.quiet(mine)} />}
        {preview}
        {reactions}
        {thread}
        <p className={`mt-0.5 flex items-center justify-end gap-2 text-xs ${t.quiet(mine)}`}>
          {m.editedAt && !m.deleted && (
            <span>
              <Trans>edited</Trans>
            </span>
          )}
          <time dateTime={new Date(m.sentAt).toISOString()}>{i18n.date(new Date(m.sentAt), old ? dayTimeFormat : timeFormat)}</time>
          {seenBy && (
            <span>
              <Trans>Seen</Trans>
            </span>
          )}
          {delivery}
          {hasActions && (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={actionsId}
              aria-label={mine ? i18n._(msg`Actions for your message`) : i18n._(msg`Actions for ${m.senderName}'s message`)}
              onClick={() => setOpen(!open)}
              className={`${t.menuButton(mine)} ${t.ring}`}
            >
              ⋯
            </button>
          )}
        </p>
        {open && hasActions && (
          <div id={actionsId} className="mt-1 flex flex-wrap items-center gap-1 rounded-lg bg-white p-1 text-slate-900 shadow">
            {actionButtons}
          </div>
        )}
      </div>
    </li>
  );
});
