import { createRoomConnection, type RoomConnection } from '../../realtime/roomConnection';
import type { WithSearchPreferences } from '../../realtime/searchPreferences';
import { chatActions, type ChatState } from './chatSlice';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * The text chat as a room kind: rooms of type `textChat`, kept in the `chat` slice. Everything
 * about the connection (search, drops, resume, resend) is the room connection's.
 */
export type TextChatRoot = WithSearchPreferences & { chat: ChatState };

export function createTextChatRoom(): RoomConnection<TextChatRoot> {
  return createRoomConnection<TextChatRoot>({
    type: 'textChat',
    area: 'chat',
    room: (state) => state.chat,
    actions: chatActions,
    keepsEndedConversation: true,
    // Read when an error is shown, in the interface language of that moment.
    errorTitles: {
      get start() {
        return i18n._(msg`Could not start searching`);
      },
      get other() {
        return i18n._(msg`Chat error`);
      },
    },
  });
}

/** The page's text chat; it outlives the page, so that a room left while offline still ends once back. */
export const textChatRoom = createTextChatRoom();
