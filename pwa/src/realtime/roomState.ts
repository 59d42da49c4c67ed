import type { PayloadAction, UnknownAction } from '@reduxjs/toolkit';
import type { LanguageExchange, Receiver, SearchStatus } from '@parley/contract/matchmaking';
import { RECENT_PARTNERS } from '@parley/contract/constants';
import type { SocketStatus } from './socket';

/**
 * Where a room connection is: nothing yet, looking for someone, in a room whose media is being
 * set up (`connecting`, video), in the room, or the room is over (its conversation stays readable).
 */
export type RoomPhase = 'idle' | 'searching' | 'connecting' | 'inRoom' | 'ended';

/** What every room kind's slice holds about its room; each kind adds its own fields. */
export type RoomState = {
  phase: RoomPhase;
  /** The product specification's name for `phase === 'searching'`, kept in step with it. */
  isSearching: boolean;
  /** The server searches again for this user after their partner left (automatic reconnect). */
  isRequeuing: boolean;
  roomId: string | null;
  /** The room the shown conversation happened in, kept after it ended: a report names it. */
  conversationRoomId: string | null;
  receiver: Receiver | null;
  /** the partner shares none of the topics asked for (matched by the fallback) */
  noCommonTopic: boolean;
  /** Matched as a language exchange (each speaks what the other learns). */
  exchange?: LanguageExchange | null;
  isPeerDisconnected: boolean;
  /** This user reported or blocked the partner: the room ended on their side at once. */
  partnerReported: boolean;
  userIsDisconnected: boolean;
  /** Our connection dropped in a room: the server holds it while the socket reconnects. */
  reconnecting: boolean;
  /** The partner's connection dropped: the server holds the room for them to come back. */
  partnerAway: boolean;
  /** How the search under way stands, once the server said (a few seconds into it); null otherwise. */
  searchStatus: Pick<SearchStatus, 'online' | 'searching' | 'fitting' | 'languageFitting' | 'countryFitting'> | null;
  /** The user ids of the last partners met from this page, newest first (whom "meet them again" names). */
  recentPartners: string[];
  /** The search under way asked to meet the recent partners again without waiting. */
  meetAgainAsked: boolean;
};

export const initialRoomState: RoomState = {
  phase: 'idle',
  isSearching: false,
  isRequeuing: false,
  roomId: null,
  conversationRoomId: null,
  receiver: null,
  noCommonTopic: false,
  isPeerDisconnected: false,
  partnerReported: false,
  userIsDisconnected: false,
  reconnecting: false,
  partnerAway: false,
  searchStatus: null,
  recentPartners: [],
  meetAgainAsked: false,
};

/** In a room that is still on, whatever the state of its media. */
export const inRoom = ({ phase }: Pick<RoomState, 'phase'>) => phase === 'connecting' || phase === 'inRoom';

/** How a room kind's conversation behaves where kinds differ. */
export type RoomKindOptions = {
  /** Where a new room starts: `connecting` while its media is set up (video), else `inRoom`. */
  enteredPhase: 'connecting' | 'inRoom';
  /** An ended conversation stays readable while the server searches again for this user. */
  keepsEndedConversation: boolean;
};

export type RoomSetupPayload = { roomId: string; receiver: Receiver; noCommonTopic?: boolean; exchange?: LanguageExchange };

function enter(state: RoomState, phase: RoomPhase) {
  if (phase !== 'searching' || state.phase !== 'searching') state.searchStatus = null;
  if (phase !== 'searching') state.meetAgainAsked = false;
  state.phase = phase;
  state.isSearching = phase === 'searching';
}

/** No room or partner any more (nor the conversation, which follows `conversationRoomId`), and none of their flags. */
function clearRoom(state: RoomState) {
  state.isRequeuing = false;
  state.isPeerDisconnected = false;
  state.partnerReported = false;
  state.userIsDisconnected = false;
  state.receiver = null;
  state.roomId = null;
  state.conversationRoomId = null;
  state.noCommonTopic = false;
  state.exchange = null;
  state.reconnecting = false;
  state.partnerAway = false;
}

/** Our connection is gone for good (or dropped outside a room): a room is over, a search goes on once back. */
function connectionLost(state: RoomState) {
  state.reconnecting = false;
  state.partnerAway = false;
  if (!inRoom(state)) return;
  enter(state, 'ended');
  state.roomId = null;
  state.userIsDisconnected = true;
  state.isRequeuing = false;
}

/**
 * The reducers of a room's lifecycle, once for every kind: searching, entering a room, the partner
 * leaving, our connection dropping and the room held and resumed (its messages are the chat's
 * room on the core: realtime/strangerRoom.ts). A kind's
 * slice spreads them into its own reducers (and wraps one where it keeps more state).
 */
export function createRoomReducers<S extends RoomState>(kind: RoomKindOptions) {
  return {
    /** A new search from this side: the previous conversation is cleared. */
    searchStarted(state: S, action: PayloadAction<{ requeued?: boolean } | undefined>) {
      clearRoom(state);
      enter(state, 'searching');
      state.searchStatus = null;
      state.meetAgainAsked = false;
      state.isRequeuing = action.payload?.requeued ?? false;
    },
    /**
     * Searching again (after a reconnection, or by itself after the partner left), the conversation
     * kept. `meetAgain`: the same search, now asking to meet the recent partners again (how it
     * stood stays shown meanwhile).
     */
    searchGoesOn(state: S, action: PayloadAction<{ meetAgain?: boolean } | undefined>) {
      const meetAgain = action.payload?.meetAgain ?? false;
      if (!meetAgain) state.searchStatus = null;
      enter(state, 'searching');
      state.meetAgainAsked = meetAgain;
    },
    /** The server confirmed the search; `requeued` when it put us back after a partner left. */
    searching(state: S, action: PayloadAction<{ requeued: boolean }>) {
      if (!kind.keepsEndedConversation) clearRoom(state);
      enter(state, 'searching');
      state.isRequeuing = action.payload.requeued;
    },
    /** How the search under way stands (who is online, searching, fits the filters). */
    searchStatus(state: S, action: PayloadAction<NonNullable<RoomState['searchStatus']>>) {
      if (state.phase === 'searching') state.searchStatus = action.payload;
    },
    /** Stop searching: nothing is pending any more; an ended conversation stays readable. */
    searchStopped(state: S) {
      if (state.phase === 'searching') enter(state, state.receiver ? 'ended' : 'idle');
      state.isRequeuing = false;
    },
    /** Room setup: the partner is known; the disconnected and requeuing flags reset. */
    roomSetup(state: S, action: PayloadAction<RoomSetupPayload>) {
      clearRoom(state);
      enter(state, kind.enteredPhase);
      state.roomId = action.payload.roomId;
      state.conversationRoomId = action.payload.roomId;
      state.receiver = action.payload.receiver;
      const met = action.payload.receiver.userId;
      state.recentPartners = [met, ...state.recentPartners.filter((id) => id !== met)].slice(0, RECENT_PARTNERS);
      state.noCommonTopic = action.payload.noCommonTopic ?? false;
      state.exchange = action.payload.exchange ?? null;
    },
    /** The partner left (Next, closed the tab, lost the connection): the conversation stays readable. */
    peerLeft(state: S) {
      if (!inRoom(state)) return;
      enter(state, 'ended');
      state.roomId = null;
      state.isPeerDisconnected = true;
      state.partnerAway = false;
    },
    /**
     * This user reported or blocked the partner (this page, or another of theirs: the server says
     * so): the room is over at once, nothing more of the partner's arrives, the conversation stays.
     */
    partnerReported(state: S) {
      if (inRoom(state)) {
        enter(state, 'ended');
        state.roomId = null;
      }
      if (state.phase !== 'ended') return;
      state.partnerReported = true;
      state.isPeerDisconnected = false;
      state.partnerAway = false;
    },
    /** Our own connection dropped for good: the room is over. */
    connectionLost,
    /**
     * Our connection dropped and socket.io is reconnecting: a room is held by the server meanwhile
     * (what we write waits in the chat's room); a search is sent again once back.
     */
    connectionDropped(state: S) {
      if (!inRoom(state)) return connectionLost(state);
      state.reconnecting = true;
    },
    /** Back on a new connection, the server gave the room back. */
    resumed(state: S, action: PayloadAction<{ partnerAway: boolean }>) {
      state.reconnecting = false;
      state.partnerAway = action.payload.partnerAway;
    },
    /** The partner's connection dropped (away) or came back. */
    setPartnerAway(state: S, action: PayloadAction<boolean>) {
      state.partnerAway = action.payload;
    },
    /** Stop or leave: the search or room ends on this side; what the conversation showed stays. */
    left(state: S) {
      enter(state, 'idle');
      state.roomId = null;
      state.reconnecting = false;
      state.partnerAway = false;
      state.isRequeuing = false;
    },
    /** This user left the conversation (left the page): nothing of it stays. */
    conversationLeft(state: S) {
      clearRoom(state);
      enter(state, 'idle');
    },
  };
}

/** The action creators of createRoomReducers, as a room connection dispatches them. */
export type RoomActions = {
  searchStarted(payload?: { requeued?: boolean }): UnknownAction;
  searchGoesOn(payload?: { meetAgain?: boolean }): UnknownAction;
  searching(payload: { requeued: boolean }): UnknownAction;
  searchStopped(): UnknownAction;
  searchStatus(status: NonNullable<RoomState['searchStatus']>): UnknownAction;
  roomSetup(payload: RoomSetupPayload & { initiator: boolean; callAttempt: number }): UnknownAction;
  peerLeft(): UnknownAction;
  partnerReported(): UnknownAction;
  connectionLost(): UnknownAction;
  connectionDropped(): UnknownAction;
  resumed(payload: { partnerAway: boolean }): UnknownAction;
  setPartnerAway(away: boolean): UnknownAction;
  left(): UnknownAction;
  conversationLeft(): UnknownAction;
};

/**
 * What the room's status line says about the connection, in order of importance: our connection
 * is down (the room held), the partner's is, or the socket is on its way. Each page words it.
 */
export type ConnectionLine = 'reconnecting' | 'partnerAway' | 'connecting' | 'offline' | null;

export function connectionLine(room: RoomState, socket: SocketStatus): ConnectionLine {
  if (room.reconnecting) return 'reconnecting';
  if (room.partnerAway && inRoom(room)) return 'partnerAway';
  if (socket === 'connecting' || socket === 'reconnecting') return 'connecting';
  if (socket === 'failed') return 'offline';
  return null;
}
