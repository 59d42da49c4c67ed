import { forwardRef, useCallback, useMemo, type ReactNode } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Composer, type ComposerHandle } from '../../../components/conversation/Composer';
import { toast } from '../../../lib/toast';
import { chatActions } from '../chatSlice';
import { textChatRoom } from '../textChatRoom';

/**
 * The text chat's composer: its draft is the slice's emojiPickerContent, so that the emoji picker
 * and the text box edit the same text; subscribed here, so that a keystroke renders only this.
 */
export const ChatComposer = forwardRef<ComposerHandle, { disabled: boolean; leading?: ReactNode; touch?: boolean }>(function ChatComposer(
  { disabled, leading, touch = false },
  ref,
) {
  const dispatch = useAppDispatch();
  const draft = useAppSelector((s) => s.chat.emojiPickerContent);
  const pickerOpen = useAppSelector((s) => s.chat.emojiPickerOpen);
  const reconnecting = useAppSelector((s) => s.chat.reconnecting);
  const bothHere = useAppSelector((s) => !s.chat.reconnecting && !s.chat.partnerAway);

  const setDraft = useCallback((text: string) => dispatch(chatActions.setEmojiPickerContent(text)), [dispatch]);
  const typing = useCallback((on: boolean) => dispatch(textChatRoom.sendTyping(on)), [dispatch]);
  const send = useCallback(
    (text: string) => {
      dispatch(chatActions.resetEmojiPicker());
      void dispatch(textChatRoom.sendMessage(text, (n) => toast({ ...n, variant: 'error' })));
    },
    [dispatch],
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
      onTyping={typing}
      disabled={disabled}
      placeholder={disabled ? 'Start a chat to send messages' : 'Type a message…'}
      held={reconnecting}
      bothHere={bothHere}
      emoji={emoji}
      keysHint={touch ? undefined : 'Enter sends, Shift+Enter adds a line, Escape twice skips to the next stranger.'}
      leading={leading}
    />
  );
});
