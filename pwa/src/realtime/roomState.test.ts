import { describe, expect, it } from 'vitest';
import { createSlice } from '@reduxjs/toolkit';
import { connectionLine, createRoomReducers, initialRoomState, inRoom, type RoomKindOptions, type RoomState } from './roomState';

const receiver = { userId: 'u2', username: 'sam', avatar: '', age: 30, gender: 'other' as const, sharedTopics: [] };

/** A room kind's slice as the text and video chats make theirs. */
function kind(options: RoomKindOptions) {
  const slice = createSlice({ name: 'room', initialState: initialRoomState, reducers: createRoomReducers<RoomState>(options) });
  return {
    a: slice.actions,
    reduce: (s: RoomState, ...actions: ReturnType<(typeof slice.actions)[keyof typeof slice.actions]>[]) =>
      actions.reduce(slice.reducer, s),
  };
}
const text = kind({ enteredPhase: 'inRoom', keepsEndedConversation: true });
const video = kind({ enteredPhase: 'connecting', keepsEndedConversation: false });
const setup = { roomId: 'r1', receiver, initiator: false, callAttempt: 0 };

describe('room state', () => {
  it('holds how the search stands only while it searches; a new search or a match forgets it', () => {
    const { a, reduce } = text;
    const status = { online: 5, searching: 2, fitting: 0 };
    expect(reduce(initialRoomState, a.searchStatus(status)).searchStatus).toBeNull(); // not searching
    let s = reduce(initialRoomState, a.searchStarted(), a.searchStatus(status));
    expect(s.searchStatus).toEqual(status);
    expect(reduce(s, a.searchStarted()).searchStatus).toBeNull(); // widened: a new search
    expect(reduce(s, a.roomSetup(setup)).searchStatus).toBeNull();
    s = reduce(s, a.searchStopped());
    expect(s.searchStatus).toBeNull();
  });

  it('walks one phase model, with isSearching in step with it', () => {
    const { a, reduce } = text;
    let s = reduce(initialRoomState, a.searchStarted());
    expect(s).toMatchObject({ phase: 'searching', isSearching: true });
    s = reduce(s, a.roomSetup(setup));
    expect(s).toMatchObject({ phase: 'inRoom', isSearching: false, roomId: 'r1', receiver });
    expect(inRoom(s)).toBe(true);
    s = reduce(s, a.peerLeft());
    expect(s).toMatchObject({ phase: 'ended', roomId: null, isPeerDisconnected: true, receiver });
    expect(inRoom(s)).toBe(false);
    expect(video.reduce(initialRoomState, video.a.roomSetup(setup)).phase).toBe('connecting');
  });

  it('after the partner left, a requeue keeps the conversation readable only for kinds that keep it', () => {
    const ended = (k: typeof text) => k.reduce(initialRoomState, k.a.roomSetup(setup), k.a.peerLeft());
    expect(text.reduce(ended(text), text.a.searching({ requeued: true }))).toMatchObject({
      phase: 'searching',
      isRequeuing: true,
      receiver,
      conversationRoomId: 'r1',
    });
    expect(video.reduce(ended(video), video.a.searching({ requeued: true }))).toMatchObject({
      phase: 'searching',
      isRequeuing: true,
      receiver: null,
      conversationRoomId: null,
    });
    // Stopping that search leaves the ended conversation; stopping a fresh one goes back to idle.
    expect(text.reduce(ended(text), text.a.searchGoesOn(), text.a.searchStopped()).phase).toBe('ended');
    expect(text.reduce(initialRoomState, text.a.searchStarted(), text.a.searchStopped()).phase).toBe('idle');
  });

  it('a dropped connection holds the room; resumed, the room goes on', () => {
    const { a, reduce } = text;
    let s = reduce(initialRoomState, a.roomSetup(setup), a.connectionDropped());
    expect(s).toMatchObject({ phase: 'inRoom', reconnecting: true, conversationRoomId: 'r1' });
    s = reduce(s, a.resumed({ partnerAway: true }));
    expect(s).toMatchObject({ reconnecting: false, partnerAway: true });
  });

  it('a connection lost for good ends a room (its conversation stays readable), and leaves a search searching', () => {
    const { a, reduce } = video;
    const s = reduce(initialRoomState, a.roomSetup(setup), a.connectionDropped(), a.connectionLost());
    expect(s).toMatchObject({ phase: 'ended', roomId: null, userIsDisconnected: true, reconnecting: false, conversationRoomId: 'r1' });
    expect(reduce(initialRoomState, a.searchStarted(), a.connectionDropped()).phase).toBe('searching');
    expect(reduce(initialRoomState, a.searchStarted(), a.connectionLost()).phase).toBe('searching');
  });

  it('leaving keeps the conversation on screen; leaving for good forgets it', () => {
    const { a, reduce } = text;
    const room = reduce(initialRoomState, a.roomSetup(setup));
    expect(reduce(room, a.left())).toMatchObject({ phase: 'idle', roomId: null, receiver, conversationRoomId: 'r1' });
    expect(reduce(room, a.conversationLeft())).toMatchObject({ phase: 'idle', roomId: null, receiver: null, conversationRoomId: null });
  });

  it('says what the status line tells about the connection', () => {
    const { a, reduce } = text;
    const room = reduce(initialRoomState, a.roomSetup(setup));
    expect(connectionLine(reduce(room, a.connectionDropped()), 'reconnecting')).toBe('reconnecting');
    expect(connectionLine(reduce(room, a.setPartnerAway(true)), 'connected')).toBe('partnerAway');
    expect(connectionLine(initialRoomState, 'connecting')).toBe('connecting');
    expect(connectionLine(initialRoomState, 'failed')).toBe('offline');
    expect(connectionLine(room, 'connected')).toBeNull();
  });
});
