import { forwardRef, useCallback, useMemo, type ComponentProps, type ReactNode } from 'react';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { Composer, type ComposerHandle } from '../../../components/conversation/Composer';
import { chatActions } from '../chatSlice';
import { useLingui } from '@lingui/react/macro';

/**
 * The text chat's composer: its draft is the slice's emojiPickerContent, so that the emoji picker
 * and the text box edit the same text; subscribed here, so that a keystroke renders only this.
 */
export const ChatComposer = forwardRef<
  ComposerHandle,
  {
    disabled: boolean;
    /** Sends through the chat's room (which keeps what waits for the connection and sends it once back). */
    onSend(text: string): void;
    onTyping(on: boolean): void;
    /** The partner's page follows the chat now (its room's people): a "typing" said before it did is said again. */
    partnerHere: boolean;
    leading?: ReactNode;
    touch?: boolean;
    /** Pictures, while both allow them in this chat (the button says why not otherwise). */
    attach?: ComponentProps<typeof Composer>['attach'];
  }
>(function ChatComposer({ disabled, onSend, onTyping, partnerHere, leading, touch = false, attach }, ref) {
  const dispatch = useAppDispatch();
  const { t } = useLingui();
  const draft = useAppSelector((s) => s.chat.emojiPickerContent);
  const pickerOpen = useAppSelector((s) => s.chat.emojiPickerOpen);
  const bothHere = useAppSelector((s) => !s.chat.reconnecting && !s.chat.partnerAway) && partnerHere;

  const setDraft = useCallback((text: string) => dispatch(chatActions.setEmojiPickerContent(text)), [dispatch]);
  const send = useCallback(
    (text: string) => {
      dispatch(chatActions.resetEmojiPicker());
      onSend(text);
    },
    [dispatch, onSend],
  );
  const emoji = useMemo(
    () => ({ open: pickerOpen, onOpenChange: (open: boolean) => dispatch(chatActions.setEmojiPickerOpen(open)) }),
    [dispatch, pickerOpen],
  );

  return (
    <Composer
      ref={ref}
      draft={draft}
      onDraftChange={setDraft}
      onSend={send}
      onTyping={onTyping}
      disabled={disabled}
      placeholder={disabled ? t`Start a chat to send messages` : t`Type a message…`}
      // The chat's room keeps a message written while either side is away and sends it once back.
      held
      bothHere={bothHere}
      emoji={emoji}
      keysHint={touch ? undefined : t`Enter sends, Shift+Enter adds a line, Escape twice skips to the next stranger.`}
      leading={leading}
      attach={attach}
    />
  );
});
