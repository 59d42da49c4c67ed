import {
  forwardRef,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { focusRing } from '../ui/buttonStyles';
import { toast } from '../../lib/toast';
import { messageTextSchema } from '@parley/contract/matchmaking';
import { getSocketStatus, offlineNotice } from '../../realtime/socket';
import { EmojiPicker } from './EmojiPicker';
import { StickerPicker } from './StickerPicker';
import type { ConversationMedia } from './media';
import type { MessageMedia } from '@parley/contract/media';
import { VoiceRecorder } from './VoiceRecorder';
import { Trans, useLingui } from '@lingui/react/macro';

const TYPING_IDLE_MS = 3000;
const darkRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

export type ComposerHandle = { focus(): void };

/** How the composer looks where it stands: under a whole-page conversation, or in the panel beside a video (dark). */
const VARIANTS = {
  page: {
    wrapper: 'relative flex flex-wrap items-end gap-2 border-t border-slate-200 bg-white p-2 sm:p-3',
    textarea:
      'max-h-32 min-h-11 min-w-0 flex-1 resize-none rounded-lg border border-slate-400 bg-white px-3 py-2.5 text-base text-slate-900 [field-sizing:content] placeholder:text-slate-500 focus:border-indigo-700 focus:outline-2 focus:outline-indigo-700 disabled:bg-slate-100',
    send: `h-11 shrink-0 rounded-lg bg-indigo-700 px-4 text-base font-semibold text-white hover:bg-indigo-800 disabled:opacity-50 ${focusRing}`,
    emoji: `hover:bg-slate-100 ${focusRing}`,
    emojiIcon: 'text-slate-700',
  },
  panel: {
    wrapper: 'relative flex flex-wrap items-end gap-2 border-t border-slate-700 p-2',
    textarea: `max-h-32 min-h-11 min-w-0 flex-1 resize-none rounded-lg bg-slate-800 px-3 py-2.5 text-base text-white [field-sizing:content] placeholder:text-slate-400 disabled:opacity-60 ${darkRing}`,
    send: `h-11 shrink-0 rounded-lg bg-indigo-600 px-4 font-semibold text-white hover:bg-indigo-500 disabled:opacity-50 ${darkRing}`,
    emoji: `bg-slate-800 hover:bg-slate-700 ${darkRing}`,
    emojiIcon: 'text-slate-100',
  },
} as const;

/**
 * Writing a message in a room. Enter sends, Shift+Enter starts a new line; "typing" is said once
 * and taken back after a pause, on sending or on clearing the draft. The draft is the caller's, so
 * that an emoji picker and the text box can edit the same text.
 */
/** Why this text cannot be sent as a message (empty, over the size limit), or null when it can. */
function messageProblem(text: string, fallback: string): string | null {
  const valid = messageTextSchema.safeParse(text);
  return valid.success ? null : (valid.error.issues[0]?.message ?? fallback);
}

export const Composer = forwardRef<
  ComposerHandle,
  {
    draft: string;
    onDraftChange(text: string): void;
    /** Sends a text the composer has checked can go (now, or once the held room is back). */
    onSend(text: string): void;
    onTyping(typing: boolean): void;
    disabled: boolean;
    placeholder: string;
    /** Our connection dropped and the room is held: a message waits in it instead of being refused. */
    held: boolean;
    /** Both sides are connected: a "typing" said while either was away is said again. */
    bothHere: boolean;
    /** An emoji picker beside the text box, open or not. */
    emoji?: { open: boolean; onOpenChange(open: boolean): void };
    /** Read by screen readers with the text box: which keys do what. */
    keysHint?: string;
    /** The text box's accessible name. */
    label?: string;
    /** Longest message this place takes (the server's limit is checked on sending either way). */
    maxLength?: number | undefined;
    leading?: ReactNode;
    variant?: keyof typeof VARIANTS;
    /** Pictures (picked, pasted or dropped) and voice messages, where the conversation takes them. */
    attach?:
      | {
          onPicture(file: File): void;
          /** Voice messages too (group rooms and direct messages; a 1:1 chat takes pictures only). */
          onVoice?(blob: Blob, durationMs: number): void;
          /** Why no picture can go now (a 1:1 chat until both allow them): the button is off and says so. */
          picturesOff?: string | undefined;
          /** Stickers and GIFs, sent as messages of their own (group rooms and direct messages). */
          media?: { source: Pick<ConversationMedia, 'stickers' | 'searchGifs'>; onPick(m: MessageMedia): void } | undefined;
        }
      | undefined;
  }
>(function Composer(
  {
    draft,
    onDraftChange,
    onSend,
    onTyping,
    disabled,
    placeholder,
    held,
    bothHere,
    emoji,
    keysHint,
    label,
    maxLength,
    leading,
    variant = 'page',
    attach,
  },
  ref,
) {
  const id = useId();
  const { t } = useLingui();
  const v = VARIANTS[variant];
  const textarea = useRef<HTMLTextAreaElement>(null);
  const emojiButton = useRef<HTMLButtonElement>(null);
  const stickerButton = useRef<HTMLButtonElement>(null);
  const [stickersOpen, setStickersOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const typingSent = useRef(false);
  const pickerOpen = emoji?.open ?? false;

  useImperativeHandle(ref, () => ({ focus: () => textarea.current?.focus() }), []);

  function stopTyping() {
    if (typingTimer.current) clearTimeout(typingTimer.current);
    typingTimer.current = null;
    if (typingSent.current) onTyping(false);
    typingSent.current = false;
  }

  useEffect(() => stopTyping, []); // eslint-disable-line react-hooks/exhaustive-deps -- only on unmount

  useEffect(() => {
    if (disabled) {
      if (typingTimer.current) clearTimeout(typingTimer.current);
      typingSent.current = false;
    }
  }, [disabled]);

  // While either side's connection was down the typing signal went nowhere (the stranger's page
  // cleared it): once both are back, a user still typing says so again.
  const wasHere = useRef(bothHere);
  useEffect(() => {
    if (bothHere && !wasHere.current && typingSent.current) onTyping(true);
    wasHere.current = bothHere;
  }, [bothHere, onTyping]);

  // Clicking outside the pickers closes them.
  useEffect(() => {
    if (!pickerOpen && !stickersOpen) return;
    const onDown = (e: PointerEvent) => {
      if (wrapper.current && !wrapper.current.contains(e.target as Node)) {
        emoji?.onOpenChange(false);
        setStickersOpen(false);
      }
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [pickerOpen, stickersOpen, emoji]);

  function setDraft(text: string) {
    onDraftChange(text);
    if (!text) return stopTyping();
    if (!typingSent.current) onTyping(true);
    typingSent.current = true;
    if (typingTimer.current) clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(stopTyping, TYPING_IDLE_MS);
  }

  function send() {
    if (disabled || !draft.trim()) return;
    // A message that cannot be sent (too long, or no connection and no room held for us) keeps its
    // draft; in a room held while we reconnect it waits in the conversation and goes once back.
    const problem = messageProblem(draft, t`This message cannot be sent.`);
    if (problem) return void toast({ title: t`Message not sent`, description: problem, variant: 'error' });
    if (getSocketStatus() !== 'connected' && !held) return void toast({ ...offlineNotice(), variant: 'error' });
    const text = draft;
    stopTyping();
    onDraftChange('');
    onSend(text);
    textarea.current?.focus();
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  }

  function pick(picked: string) {
    const el = textarea.current;
    const start = el?.selectionStart ?? draft.length;
    const end = el?.selectionEnd ?? draft.length;
    if (maxLength !== undefined && draft.length - (end - start) + picked.length > maxLength) return void emoji?.onOpenChange(false);
    setDraft(draft.slice(0, start) + picked + draft.slice(end));
    emoji?.onOpenChange(false);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + picked.length, start + picked.length);
    });
  }

  /** Files pasted, dropped or picked: the pictures among them go, anything else is said to be refused. */
  function attachFiles(files: FileList | File[] | null) {
    if (!attach || disabled || !files) return false;
    const list = [...files];
    if (list.length === 0) return false;
    if (attach.picturesOff) {
      toast({ title: attach.picturesOff, variant: 'error' });
      return true;
    }
    const pictures = list.filter((f) => f.type.startsWith('image/'));
    for (const f of pictures) attach.onPicture(f);
    if (pictures.length < list.length) toast({ title: t`Only pictures can be added here.`, variant: 'error' });
    return true;
  }
  function onPaste(e: ClipboardEvent<HTMLTextAreaElement>) {
    if (e.clipboardData.files.length > 0 && attachFiles(e.clipboardData.files)) e.preventDefault();
  }
  function onDrop(e: DragEvent<HTMLDivElement>) {
    if (!attach || e.dataTransfer.files.length === 0) return;
    e.preventDefault();
    attachFiles(e.dataTransfer.files);
  }

  function closePicker() {
    emoji?.onOpenChange(false);
    emojiButton.current?.focus();
  }
  function closeStickers() {
    setStickersOpen(false);
    stickerButton.current?.focus();
  }
  function pickMedia(m: MessageMedia) {
    if (disabled || !attach?.media) return;
    if (getSocketStatus() !== 'connected' && !held) return void toast({ ...offlineNotice(), variant: 'error' });
    attach.media.onPick(m);
    setStickersOpen(false);
    textarea.current?.focus();
  }

  return (
    <div
      ref={wrapper}
      className={v.wrapper}
      onDragOver={attach ? (e) => e.dataTransfer.types.includes('Files') && e.preventDefault() : undefined}
      onDrop={attach ? onDrop : undefined}
    >
      {leading && <div className="flex shrink-0">{leading}</div>}
      <label htmlFor={`${id}-message`} className="sr-only">
        {label ?? t`Message`}
      </label>
      <textarea
        id={`${id}-message`}
        ref={textarea}
        value={draft}
        disabled={disabled}
        rows={1}
        maxLength={maxLength}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={attach ? onPaste : undefined}
        placeholder={placeholder}
        aria-describedby={keysHint ? `${id}-keys` : undefined}
        // On a phone the message box takes the whole first row (the width to type in); what leads
        // (Next), the tools and Send share the row under it, Send at the end.
        className={`${v.textarea} max-[480px]:order-first max-[480px]:basis-full`}
      />
      {keysHint && (
        <span id={`${id}-keys`} className="sr-only">
          {keysHint}
        </span>
      )}
      {emoji && (
        <button
          ref={emojiButton}
          type="button"
          disabled={disabled}
          aria-label={t`Emoji`}
          aria-haspopup="dialog"
          aria-expanded={pickerOpen}
          aria-controls={pickerOpen ? `${id}-emoji` : undefined}
          onClick={() => {
            setStickersOpen(false);
            emoji.onOpenChange(!pickerOpen);
          }}
          className={`grid size-11 shrink-0 place-items-center rounded-lg text-2xl disabled:opacity-50 ${v.emoji}`}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className={`size-6 fill-none stroke-current stroke-2 ${v.emojiIcon}`}
            strokeLinecap="round"
          >
            <circle cx="12" cy="12" r="9" />
            <path d="M8.5 14.5c1.8 2 5.2 2 7 0" />
            <path d="M9 9.5h.01M15 9.5h.01" strokeWidth={3} />
          </svg>
        </button>
      )}
      {pickerOpen && !disabled && <EmojiPicker id={`${id}-emoji`} onPick={pick} onClose={closePicker} />}
      {attach?.media && (
        <button
          ref={stickerButton}
          type="button"
          disabled={disabled}
          aria-label={t`Stickers and GIFs`}
          aria-haspopup="dialog"
          aria-expanded={stickersOpen}
          aria-controls={stickersOpen ? `${id}-stickers` : undefined}
          onClick={() => {
            emoji?.onOpenChange(false);
            setStickersOpen((o) => !o);
          }}
          className={`grid size-11 shrink-0 place-items-center rounded-lg disabled:opacity-50 ${v.emoji} ${v.emojiIcon}`}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 fill-none stroke-current stroke-2" strokeLinejoin="round">
            <path d="M4 6a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v7l-7 7H6a2 2 0 0 1-2-2z" />
            <path d="M13 20v-5a2 2 0 0 1 2-2h5" />
          </svg>
        </button>
      )}
      {stickersOpen && !disabled && attach?.media && (
        <StickerPicker id={`${id}-stickers`} source={attach.media.source} onPick={pickMedia} onClose={closeStickers} />
      )}
      {attach && (
        <>
          {/* Outside the label: it describes the button, it is not part of its name. */}
          {attach.picturesOff && (
            <span id={`${id}-pictures-off`} className="sr-only">
              {attach.picturesOff}
            </span>
          )}
          <label
            title={attach.picturesOff}
            className={`grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg has-disabled:cursor-default has-disabled:opacity-50 has-focus-visible:outline-2 has-focus-visible:outline-indigo-700 ${v.emoji} ${v.emojiIcon}`}
          >
            <span className="sr-only">
              <Trans>Add a picture</Trans>
            </span>
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp,image/heic,image/heif"
              multiple
              disabled={disabled || attach.picturesOff !== undefined}
              aria-describedby={attach.picturesOff ? `${id}-pictures-off` : undefined}
              className="sr-only"
              data-testid="picture-input"
              onChange={(e) => {
                attachFiles(e.target.files);
                e.target.value = '';
              }}
            />
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 fill-none stroke-current stroke-2" strokeLinejoin="round">
              <rect x="3" y="5" width="18" height="14" rx="2" />
              <circle cx="9" cy="10" r="1.5" />
              <path d="m21 16-5-5-8 8" />
            </svg>
          </label>
          {attach.onVoice && <VoiceRecorder disabled={disabled} onSend={attach.onVoice} buttonClass={`${v.emoji} ${v.emojiIcon}`} />}
        </>
      )}
      <button type="button" onClick={send} disabled={disabled || !draft.trim()} className={`${v.send} max-[480px]:ms-auto`}>
        <Trans>Send</Trans>
      </button>
    </div>
  );
});
