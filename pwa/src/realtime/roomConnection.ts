import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import type { z } from 'zod';
import {
  chatEvents,
  chatFiltersSchema,
  partnerLeftSchema,
  partnerPresenceSchema,
  roomSetupSchema,
  searchingSchema,
  searchStatusSchema,
  socketErrorSchema,
  type RoomType,
  type SocketError,
} from '@parley/contract/matchmaking';
import { askToResume, createAbandonedRooms, type ResumeOutcome } from './heldRoom';
import type { RoomActions, RoomState } from './roomState';
import { createSearchTicket } from './searchTicket';
import { searchPreferencesActions, type WithSearchPreferences } from './searchPreferences';
import {
  checkPayload,
  emitSocket,
  getSocketStatus,
  offlineNotice,
  onSocketEvent,
  subscribeSocketStatus,
  type SocketNotice,
} from './socket';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * The one owner of a 1:1 room's life over the socket: search, room setup, the partner leaving or
 * dropping, our own connection dropping (the room held by the server, then taken back), and what
 * a page left behind. The room's messages and typing go through the one room connection
 * (strangerRoom.ts over storedRoom.ts), as every kind's do. A kind (text chat, video chat) is an
 * adapter: its slice, its room type and the few hooks where it does more (a video call placed again).
 */

export type RoomNotify = (notice: SocketNotice) => void;
export type RoomThunk<S, R = void> = ThunkAction<R, S, unknown, UnknownAction>;
type Dispatch = (action: UnknownAction) => unknown;
type RoomSetup = z.infer<typeof roomSetupSchema>;

/** Where a room kind does more than the room itself; each runs with the store the room lives in. */
export type RoomKindHooks<S> = {
  /** Further server events the kind listens to while its page is open; returns their unsubscribes. */
  attach?(dispatch: Dispatch, getState: () => S): Array<() => void>;
  /** The room was set up for this page's search (before the slice hears of it). */
  matched?(setup: RoomSetup): void;
  /** Back in the room after a drop, with what the server said. */
  resumed?(roomId: string, outcome: Extract<ResumeOutcome, { kind: 'resumed' }>, dispatch: Dispatch): void;
  /** Both sides are connected in the room again (the resume, or the partner back). */
  bothBack?(dispatch: Dispatch, getState: () => S): void;
  /** A server error the kind answers itself; true when it did (no toast then). */
  error?(e: SocketError, dispatch: Dispatch, getState: () => S): boolean;
  dispose?(): void;
};

export type RoomKind<S extends WithSearchPreferences> = {
  /** The matchmaker's name for this kind of room. */
  type: RoomType;
  /** Where logged problems come from. */
  area: string;
  /** The kind's slice of room state. */
  room(state: S): RoomState;
  actions: RoomActions;
  /** Matches the slice's RoomKindOptions: after the partner left, the conversation stays while searching again. */
  keepsEndedConversation: boolean;
  /** Toast titles for a refused Start, and for any other refusal (rate limits have their own). */
  errorTitles: { start?: string; other: string };
  hooks?: RoomKindHooks<S>;
};

export type RoomConnection<S> = {
  /** Subscribes the room to the socket while its page is open; returns the unsubscribe. `notify` shows a toast. */
  attach(notify: RoomNotify): RoomThunk<S, () => void>;
  /**
   * Start searching with the saved preferences. `keepConversation`: an ended conversation stays
   * readable meanwhile. `resumeSearch`: the search under way, sent again after a reconnection (the
   * server forgot it with the old connection) under its own id, so that a room matched while we
   * were away comes back with it. `meetAgain`: a new search that asks to meet this page's recent
   * partners again without waiting out its own pause (their side still waits out theirs).
   */
  startSearch(
    notify: RoomNotify,
    opts?: { keepConversation?: boolean; resumeSearch?: boolean; meetAgain?: boolean },
  ): RoomThunk<S, boolean>;
  /** Stop searching; an ended conversation stays readable. */
  stopSearch(): RoomThunk<S>;
  /**
   * Stop or leave the page: the search or room ends on the server too, so the partner is not left
   * waiting. `forget`: nothing of the conversation stays (coming back shows a clean page).
   */
  leave(opts?: { forget?: boolean }): RoomThunk<S>;
  /**
   * The partner was reported or blocked from this page: the room is over here at once (the server
   * has ended it, and tells the partner only that the stranger left).
   */
  reported(): RoomThunk<S>;
  /** Skip: end this room (the partner sees the stranger left) and look for the next one. */
  next(notify: RoomNotify): RoomThunk<S, boolean>;
  /** Ends its timers and what it waits for (a test's, or a page's for good). */
  dispose(): void;
};

export function createRoomConnection<S extends WithSearchPreferences>(kind: RoomKind<S>): RoomConnection<S> {
  const { actions, hooks = {} } = kind;
  /**
   * The search under way, from the user's Start or Next until their Stop (or leaving the page). A
   * `matched` or `searching` that answers an older search (it crossed a Stop, or a Stop and a new
   * Start, on the way) is ignored: the server ends that room when the Stop arrives, and the partner
   * is told. A requeue the server starts (the partner left, automatic reconnect on) answers the
   * search under way, so it still shows.
   */
  const search = createSearchTicket();
  const abandoned = createAbandonedRooms();

  // The room as the store the thunks last ran with holds it.
  let store: { dispatch: Dispatch; getState: () => S } | null = null;
  const bind = (dispatch: Dispatch, getState: () => S) => {
    store = { dispatch, getState };
    return () => kind.room(getState());
  };
  const current = () => kind.room(store!.getState());

  // Server-to-client payloads are checked too: a malformed event is logged, never rendered.
  const parsed = <T>(schema: z.ZodType<T>, event: string, payload: unknown) => checkPayload(kind.area, schema, event, payload);

  function titleFor(e: SocketError): string {
    if (e.code === 'rate_limited') return i18n._(msg`Slow down`);
    if (e.event === chatEvents.start && kind.errorTitles.start) return kind.errorTitles.start;
    return kind.errorTitles.other;
  }

  /** Both sides are back in the room: the kind catches up (what waited goes with the chat's room as it joins again). */
  function bothBack(dispatch: Dispatch, getState: () => S) {
    hooks.bothBack?.(dispatch, getState);
  }

  const startSearch: RoomConnection<S>['startSearch'] =
    (notify, opts = {}) =>
    (dispatch, getState) => {
      bind(dispatch, getState);
      const { chatFilters, automaticReconnect } = getState().searchPreferences;
      const filters = chatFiltersSchema.safeParse(chatFilters);
      if (!filters.success) {
        notify({ title: i18n._(msg`Check your filters`), description: i18n._(msg`The filters are not valid.`) });
        return false;
      }
      const searchId = (opts.resumeSearch ? search.current() : null) ?? search.newId();
      // A search sent again after a reconnection keeps asking what it asked.
      const { recentPartners, meetAgainAsked } = kind.room(getState());
      const meetAgain = (opts.meetAgain || (opts.resumeSearch && meetAgainAsked)) && recentPartners.length > 0;
      const payload = {
        roomType: kind.type,
        filters: filters.data,
        automaticReconnect,
        searchId,
        ...(meetAgain && { meetAgain: recentPartners }),
      };
      if (!emitSocket(chatEvents.start, payload)) {
        // A connection under way (the page just opened, or a short drop): the search begins here
        // and goes out as soon as it connects (attach sends a search under way again). Offline for
        // good, or signed out: said so.
        const status = getSocketStatus();
        if (status !== 'connecting' && status !== 'reconnecting') {
          notify(offlineNotice());
          return false;
        }
      }
      search.begin(searchId);
      if (meetAgain) dispatch(actions.searchGoesOn({ meetAgain: true }));
      else dispatch(opts.keepConversation || opts.resumeSearch ? actions.searchGoesOn() : actions.searchStarted());
      return true;
    };

  /** Asks the server for the room it held while our connection was down; it has ended when refused. */
  const resume =
    (roomId: string, notify: RoomNotify): RoomThunk<S> =>
    (dispatch, getState) => {
      const room = bind(dispatch, getState);
      const stillWaiting = () => room().roomId === roomId && room().reconnecting;
      void askToResume(roomId, stillWaiting).then((outcome) => {
        if (outcome.kind === 'dropped' || !stillWaiting()) return;
        if (outcome.kind === 'resumed') {
          dispatch(actions.resumed({ partnerAway: outcome.partnerAway }));
          hooks.resumed?.(roomId, outcome, dispatch);
          // A switch changed while offline could not be sent then.
          emitSocket(chatEvents.settings, { automaticReconnect: getState().searchPreferences.automaticReconnect });
          if (!outcome.partnerAway) bothBack(dispatch, getState);
        } else if (outcome.kind === 'partnerLeft') {
          // The stranger left while we were away: as if we had seen them go.
          dispatch(actions.resumed({ partnerAway: false }));
          dispatch(actions.peerLeft());
          if (getState().searchPreferences.automaticReconnect)
            dispatch(startSearch(notify, { keepConversation: kind.keepsEndedConversation }));
        } else dispatch(actions.connectionLost());
      });
    };

  return {
    attach: (notify) => (dispatch, getState) => {
      const room = bind(dispatch, getState);
      let wasConnected = getSocketStatus() === 'connected';
      const offs = [
        onSocketEvent(chatEvents.searching, (payload: unknown) => {
          const p = parsed(searchingSchema, chatEvents.searching, payload);
          if (p && p.roomType === kind.type && search.owns(p.searchId)) dispatch(actions.searching({ requeued: p.requeued }));
        }),
        onSocketEvent(chatEvents.searchStatus, (payload: unknown) => {
          const p = parsed(searchStatusSchema, chatEvents.searchStatus, payload);
          if (p && p.roomType === kind.type && search.owns(p.searchId))
            dispatch(
              actions.searchStatus({
                online: p.online,
                searching: p.searching,
                fitting: p.fitting,
                ...(p.languageFitting === undefined ? {} : { languageFitting: p.languageFitting }),
                ...(p.countryFitting === undefined ? {} : { countryFitting: p.countryFitting }),
              }),
            );
        }),
        onSocketEvent(chatEvents.matched, (payload: unknown) => {
          const p = parsed(roomSetupSchema, chatEvents.matched, payload);
          if (!p || p.roomType !== kind.type || !search.owns(p.searchId)) return;
          hooks.matched?.(p);
          dispatch(actions.roomSetup(p));
        }),
        onSocketEvent(chatEvents.partnerLeft, (payload: unknown) => {
          const p = parsed(partnerLeftSchema, chatEvents.partnerLeft, payload);
          if (!p || p.roomId !== room().roomId) return;
          dispatch(p.reason === 'reported' ? actions.partnerReported() : actions.peerLeft());
        }),
        ...(
          [
            [chatEvents.partnerAway, true],
            [chatEvents.partnerBack, false],
          ] as const
        ).map(([event, away]) =>
          onSocketEvent(event, (payload: unknown) => {
            const p = parsed(partnerPresenceSchema, event, payload);
            if (!p || p.roomId !== room().roomId) return;
            dispatch(actions.setPartnerAway(away));
            if (!away && !room().reconnecting) bothBack(dispatch, getState);
          }),
        ),
        onSocketEvent(chatEvents.error, (payload: unknown) => {
          const e = parsed(socketErrorSchema, chatEvents.error, payload);
          if (!e || hooks.error?.(e, dispatch, getState)) return;
          // A refused start or requeue leaves nothing pending; the refusal of an older search changes nothing.
          if ((e.event === chatEvents.start || e.event === chatEvents.next) && search.owns(e.searchId)) {
            search.end();
            dispatch(actions.searchStopped());
          }
          notify({ title: titleFor(e), description: e.message });
        }),
        subscribeSocketStatus(() => {
          const status = getSocketStatus();
          const { phase, roomId, reconnecting } = room();
          if (status === 'connected') {
            // The server held our room while we were away: take it back. It forgets a queue entry
            // with the connection: search again, under the same search id.
            if (!wasConnected && reconnecting && roomId) dispatch(resume(roomId, notify));
            else if (!wasConnected && phase === 'searching') dispatch(startSearch(notify, { resumeSearch: true }));
            wasConnected = true;
          } else if (wasConnected && status !== 'connecting') {
            wasConnected = false;
            // socket.io retries by itself ('reconnecting'); any other state is for good.
            dispatch(status === 'reconnecting' ? actions.connectionDropped() : actions.connectionLost());
          } else if (reconnecting && status !== 'reconnecting' && status !== 'connecting') {
            // Retries exhausted (or signed out) while the room was held: it is over, and should the
            // socket come back after all, the server is told so at once.
            if (roomId) abandoned.endWhenBack(roomId);
            dispatch(actions.connectionLost());
          }
        }),
        ...(hooks.attach?.(dispatch, getState) ?? []),
      ];
      return () => offs.forEach((off) => off());
    },

    startSearch,

    stopSearch: () => (dispatch, getState) => {
      bind(dispatch, getState);
      search.end();
      abandoned.stopOnServer(current());
      dispatch(actions.searchStopped());
    },

    leave:
      ({ forget = false } = {}) =>
      (dispatch, getState) => {
        const { phase, roomId, reconnecting } = bind(dispatch, getState)();
        search.end();
        if (phase !== 'idle') abandoned.stopOnServer({ roomId, reconnecting });
        if (!forget) dispatch(actions.left());
        else dispatch(roomId ? actions.conversationLeft() : actions.searchStopped());
      },

    reported: () => (dispatch, getState) => {
      bind(dispatch, getState);
      search.end();
      dispatch(actions.partnerReported());
    },

    next: (notify) => (dispatch, getState) => {
      const room = bind(dispatch, getState);
      // Out of a room (the partner already left) Next is simply a new search with the current filters.
      if (!room().roomId) return dispatch(startSearch(notify));
      // In a room the server ends it and searches again with the same filters; a chat:start after it
      // could end a room matched in between, leaving that partner with "Stranger has disconnected".
      const searchId = search.newId();
      if (!emitSocket(chatEvents.next, { searchId })) {
        notify(offlineNotice());
        return false;
      }
      search.begin(searchId);
      dispatch(actions.searchStarted());
      return true;
    },

    dispose() {
      abandoned.dispose();
      hooks.dispose?.();
    },
  };
}

/** The automatic-reconnect switch: saved, and applied to the search or room under way. */
export function changeAutomaticReconnect(automaticReconnect: boolean): RoomThunk<WithSearchPreferences> {
  return (dispatch) => {
    dispatch(searchPreferencesActions.setAutomaticReconnect(automaticReconnect));
    emitSocket(chatEvents.settings, { automaticReconnect });
  };
}
