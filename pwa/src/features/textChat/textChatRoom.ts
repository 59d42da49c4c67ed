import { createRoomConnection, type RoomConnection } from '../../realtime/roomConnection';
import type { WithSearchPreferences } from '../../realtime/searchPreferences';
import { chatActions, type ChatState } from './chatSlice';

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
    errorTitles: { start: 'Could not start searching', other: 'Chat error' },
  });
}

/** The page's text chat; it outlives the page, so that a room left while offline still ends once back. */
export const textChatRoom = createTextChatRoom();
