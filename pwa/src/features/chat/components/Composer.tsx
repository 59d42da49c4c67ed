import { forwardRef, useEffect, useId, useImperativeHandle, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { focusRing } from '../../../components/FormField';
import { toast } from '../../../lib/toast';
import { messageProblem } from '../../../realtime/outbox';
import { getSocketStatus, offlineNotice } from '../../../realtime/socket';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { chatActions } from '../chatSlice';
import { textChatRoom } from '../textChatRoom';
import { EmojiPicker } from './EmojiPicker';

const TYPING_IDLE_MS = 3000;

export type ComposerHandle = { focus(): void };

/**
 * Writing a message. The draft lives in the slice's emojiPickerContent so the picker and the
 * text box edit the same text. Enter sends, Shift+Enter starts a new line.
 */
export const Composer = forwardRef<ComposerHandle, { disabled: boolean; leading?: ReactNode }>(function Composer(
  { disabled, leading },
  ref,
) {
  const id = useId();
  const dispatch = useAppDispatch();
  const draft = useAppSelector((s) => s.chat.emojiPickerContent);
  const pickerOpen = useAppSelector((s) => s.chat.emojiPickerOpen);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const emojiButton = useRef<HTMLButtonElement>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const typingSent = useRef(false);

  useImperativeHandle(ref, () => ({ focus: () => textarea.current?.focus() }), []);

  function stopTyping() {
    if (typingTimer.current) clearTimeout(typingTimer.current);
    typingTimer.current = null;
    if (typingSent.current) dispatch(textChatRoom.sendTyping(false));
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
  const reconnecting = useAppSelector((s) => s.chat.reconnecting);
  const bothHere = useAppSelector((s) => !s.chat.reconnecting && !s.chat.partnerAway);
  const wasHere = useRef(bothHere);
  useEffect(() => {
    if (bothHere && !wasHere.current && typingSent.current) dispatch(textChatRoom.sendTyping(true));
    wasHere.current = bothHere;
  }, [bothHere, dispatch]);

  // Clicking outside the picker closes it.
  useEffect(() => {
    if (!pickerOpen) return;
    const onDown = (e: PointerEvent) => {
      if (wrapper.current && !wrapper.current.contains(e.target as Node)) dispatch(chatActions.setEmojiPickerOpen(false));
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [pickerOpen, dispatch]);

  function setDraft(text: string) {
    dispatch(chatActions.setEmojiPickerContent(text));
    if (!text) return stopTyping();
    if (!typingSent.current) dispatch(textChatRoom.sendTyping(true));
    typingSent.current = true;
    if (typingTimer.current) clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(stopTyping, TYPING_IDLE_MS);
  }

  function send() {
    if (disabled || !draft.trim()) return;
    // A message that cannot be sent (too long, or no connection and no chat held for us) keeps its
    // draft; in a chat held while we reconnect it waits in the conversation and goes once back.
    const problem = messageProblem(draft);
    if (problem) return void toast({ title: 'Message not sent', description: problem, variant: 'error' });
    if (getSocketStatus() !== 'connected' && !reconnecting) return void toast({ ...offlineNotice(), variant: 'error' });
    const text = draft;
    stopTyping();
    dispatch(chatActions.resetEmojiPicker());
    void dispatch(textChatRoom.sendMessage(text, (n) => toast({ ...n, variant: 'error' })));
    textarea.current?.focus();
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  }

  function pick(emoji: string) {
    const el = textarea.current;
    const start = el?.selectionStart ?? draft.length;
    const end = el?.selectionEnd ?? draft.length;
    setDraft(draft.slice(0, start) + emoji + draft.slice(end));
    dispatch(chatActions.setEmojiPickerOpen(false));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  }

  function closePicker() {
    dispatch(chatActions.setEmojiPickerOpen(false));
    emojiButton.current?.focus();
  }

  return (
    <div ref={wrapper} className="relative flex items-end gap-2 border-t border-slate-200 bg-white p-2 sm:p-3">
      {leading}
      <label htmlFor={`${id}-message`} className="sr-only">
        Message
      </label>
      <textarea
        id={`${id}-message`}
        ref={textarea}
        value={draft}
        disabled={disabled}
        rows={1}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={disabled ? 'Start a chat to send messages' : 'Type a message…'}
        aria-describedby={`${id}-keys`}
        className="max-h-32 min-h-11 flex-1 resize-none rounded-lg border border-slate-400 bg-white px-3 py-2.5 text-base text-slate-900 [field-sizing:content] placeholder:text-slate-500 focus:border-indigo-700 focus:outline-2 focus:outline-indigo-700 disabled:bg-slate-100"
      />
      <span id={`${id}-keys`} className="sr-only">
        Enter sends, Shift+Enter adds a line, Escape twice skips to the next stranger.
      </span>
      <button
        ref={emojiButton}
        type="button"
        disabled={disabled}
        aria-label="Emoji"
        aria-haspopup="dialog"
        aria-expanded={pickerOpen}
        aria-controls={pickerOpen ? `${id}-emoji` : undefined}
        onClick={() => dispatch(chatActions.setEmojiPickerOpen(!pickerOpen))}
        className={`grid size-11 shrink-0 place-items-center rounded-lg text-2xl hover:bg-slate-100 disabled:opacity-50 ${focusRing}`}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-6 fill-none stroke-current stroke-2 text-slate-700"
          strokeLinecap="round"
        >
          <circle cx="12" cy="12" r="9" />
          <path d="M8.5 14.5c1.8 2 5.2 2 7 0" />
          <path d="M9 9.5h.01M15 9.5h.01" strokeWidth={3} />
        </svg>
      </button>
      {pickerOpen && !disabled && <EmojiPicker id={`${id}-emoji`} onPick={pick} onClose={closePicker} />}
      <button
        type="button"
        onClick={send}
        disabled={disabled || !draft.trim()}
        className={`h-11 shrink-0 rounded-lg bg-indigo-700 px-4 text-base font-semibold text-white hover:bg-indigo-800 disabled:opacity-50 ${focusRing}`}
      >
        Send
      </button>
    </div>
  );
});
