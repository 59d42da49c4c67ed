import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';
import type { ChatFilters, Receiver, RoomType } from '@parley/contract/chat';
import {
  giveUpWaiting,
  messageAdded,
  messageStatusChanged,
  partnerAwayChanged,
  roomDropped,
  roomResumed,
  type ConversationMessage,
  type MessageStatusChange,
} from '../../lib/conversation';

/** A message as the conversation shows it: whose it is and how far it got. */
export type MessageEntry = ConversationMessage;

export type ChatState = {
  encounteredUser: Receiver[];
  receiver: Receiver | null;
  messageState: MessageEntry[];
  mostPopularTopics: string[];
  chatFilters: ChatFilters;
  isPeerDisconnected: boolean;
  userIsDisconnected: boolean;
  isSearching: boolean;
  isRequeuing: boolean;
  roomType: RoomType;
  roomId: string | null;
  automaticReconnect: boolean;
  emojiPickerOpen: boolean;
  emojiPickerContent: string;
  /** the partner shares none of the topics asked for (matched by the fallback) */
  noCommonTopic: boolean;
  partnerTyping: boolean;
  /** Our connection dropped in a chat: the server holds it while the socket reconnects. */
  reconnecting: boolean;
  /** The partner's connection dropped: the server holds the chat for them to come back. */
  partnerAway: boolean;
};

export const defaultChatFilters: ChatFilters = { topics: [], gender: 'All', ageRange: { minAge: MIN_AGE, maxAge: MAX_AGE } };

const initialState: ChatState = {
  encounteredUser: [],
  receiver: null,
  messageState: [],
  mostPopularTopics: [],
  chatFilters: defaultChatFilters,
  isPeerDisconnected: false,
  userIsDisconnected: false,
  isSearching: false,
  isRequeuing: false,
  roomType: 'textChat',
  roomId: null,
  automaticReconnect: false,
  emojiPickerOpen: false,
  emojiPickerContent: '',
  noCommonTopic: false,
  partnerTyping: false,
  reconnecting: false,
  partnerAway: false,
};

/** No room, partner or messages any more, and none of their flags. */
function clearConversation(state: ChatState) {
  state.isRequeuing = false;
  state.isPeerDisconnected = false;
  state.userIsDisconnected = false;
  state.receiver = null;
  state.roomId = null;
  state.messageState = [];
  state.noCommonTopic = false;
  state.partnerTyping = false;
  state.reconnecting = false;
  state.partnerAway = false;
}

function endChatOnConnectionLoss(state: ChatState) {
  // A search resumes by itself after the reconnect; a conversation is over.
  if (state.roomId) state.userIsDisconnected = true;
  state.roomId = null;
  state.partnerTyping = false;
  state.reconnecting = false;
  state.partnerAway = false;
  giveUpWaiting(state.messageState);
}

const chatSlice = createSlice({
  name: 'chat',
  initialState,
  reducers: {
    setChatFilters(state, action: PayloadAction<ChatFilters>) {
      state.chatFilters = action.payload;
    },
    setIsSearching(state, action: PayloadAction<boolean>) {
      state.isSearching = action.payload;
    },
    setIsRequeuing(state, action: PayloadAction<boolean>) {
      state.isRequeuing = action.payload;
    },
    setRoomType(state, action: PayloadAction<RoomType>) {
      state.roomType = action.payload;
    },
    setAutomaticReconnect(state, action: PayloadAction<boolean>) {
      state.automaticReconnect = action.payload;
    },
    /** Room setup: the partner is known; the disconnected and requeuing flags reset (spec 4). */
    roomSetup(state, action: PayloadAction<{ roomId: string; receiver: Receiver; noCommonTopic?: boolean }>) {
      state.roomId = action.payload.roomId;
      state.receiver = action.payload.receiver;
      state.noCommonTopic = action.payload.noCommonTopic ?? false;
      state.partnerTyping = false;
      state.messageState = [];
      state.isSearching = false;
      state.isPeerDisconnected = false;
      state.userIsDisconnected = false;
      state.isRequeuing = false;
      state.reconnecting = false;
      state.partnerAway = false;
      const seen = state.encounteredUser.filter((u) => u.userId !== action.payload.receiver.userId);
      state.encounteredUser = [action.payload.receiver, ...seen].slice(0, 50);
    },
    /** The server confirmed the search; `requeued` when it put us back after a partner left. */
    searching(state, action: PayloadAction<{ requeued: boolean }>) {
      state.isSearching = true;
      state.isRequeuing = action.payload.requeued;
    },
    /** Stop searching: nothing is pending any more. */
    searchStopped(state) {
      state.isSearching = false;
      state.isRequeuing = false;
    },
    /** A new search from this side: the previous conversation is cleared. */
    searchStarted(state) {
      clearConversation(state);
      state.isSearching = true;
    },
    /** The partner left (Next, closed the tab, lost the connection): the conversation stays readable. */
    peerLeft(state) {
      state.isPeerDisconnected = true;
      state.partnerTyping = false;
      state.partnerAway = false;
      state.roomId = null;
      giveUpWaiting(state.messageState);
    },
    /** This user left the conversation (left the page): nothing of it stays, the search stops. */
    conversationLeft(state) {
      clearConversation(state);
      state.isSearching = false;
    },
    /** Our own connection dropped while chatting or searching, for good: the chat is over. */
    connectionLost: endChatOnConnectionLoss,
    /** Our connection dropped and socket.io is reconnecting: a chat is held by the server meanwhile. */
    connectionDropped(state) {
      if (!state.roomId) return endChatOnConnectionLoss(state);
      roomDropped(state, state.messageState);
    },
    /** Back on a new connection, the server gave us our chat again. */
    resumed(state, action: PayloadAction<{ partnerAway: boolean }>) {
      roomResumed(state, action.payload.partnerAway);
    },
    setPartnerAway(state, action: PayloadAction<boolean>) {
      partnerAwayChanged(state, action.payload);
    },
    setPartnerTyping(state, action: PayloadAction<boolean>) {
      state.partnerTyping = action.payload;
    },
    setPeerDisconnected(state, action: PayloadAction<boolean>) {
      state.isPeerDisconnected = action.payload;
    },
    setUserIsDisconnected(state, action: PayloadAction<boolean>) {
      state.userIsDisconnected = action.payload;
    },
    /** Once only: a message the conversation already shows (a resend after a dropped connection) is not added again. */
    addMessage(state, action: PayloadAction<MessageEntry>) {
      messageAdded(state, state.messageState, action.payload);
    },
    setMessageStatus(state, action: PayloadAction<MessageStatusChange>) {
      messageStatusChanged(state.messageState, action.payload);
    },
    setMostPopularTopics(state, action: PayloadAction<string[]>) {
      state.mostPopularTopics = action.payload;
    },
    setEmojiPickerOpen(state, action: PayloadAction<boolean>) {
      state.emojiPickerOpen = action.payload;
    },
    setEmojiPickerContent(state, action: PayloadAction<string>) {
      state.emojiPickerContent = action.payload;
    },
    // Reset actions restore receiver, messages, filters and the emoji picker (spec 4).
    resetReceiver(state) {
      state.receiver = null;
      state.roomId = null;
      state.noCommonTopic = false;
      state.partnerTyping = false;
    },
    resetMessages(state) {
      state.messageState = [];
    },
    resetChatFilters(state) {
      state.chatFilters = defaultChatFilters;
    },
    resetEmojiPicker(state) {
      state.emojiPickerOpen = false;
      state.emojiPickerContent = '';
    },
  },
});

export const chatActions = chatSlice.actions;
export default chatSlice.reducer;
