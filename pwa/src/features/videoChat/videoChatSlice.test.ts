import { describe, expect, it } from 'vitest';
import reducer, { videoChatActions as a, type VideoChatState } from './videoChatSlice';

const receiver = { userId: 'u2', username: 'sam', avatar: '', age: 30, gender: 'other' as const, sharedTopics: [] };
const setup = { roomId: 'r1', receiver, initiator: true, noCommonTopic: false };
const fresh = (): VideoChatState => reducer(undefined, { type: '@@init' });

describe('videoChat slice', () => {
  it('keeps the spec fields and their defaults', () => {
    expect(fresh()).toMatchObject({ deviceId: '', deviceAudioId: '', backgroundVideoFilter: 'none', previewVideoIsLoaded: false });
  });

  it('room setup resets the peer-disconnected, user-disconnected and requeuing flags', () => {
    let s = reducer(fresh(), a.searchStarted({ requeued: true }));
    s = { ...s, isPeerDisconnected: true, userIsDisconnected: true };
    s = reducer(s, a.roomSetup(setup));
    expect(s).toMatchObject({
      phase: 'connecting',
      roomId: 'r1',
      initiator: true,
      isPeerDisconnected: false,
      userIsDisconnected: false,
      isRequeuing: false,
    });
  });

  it('tells this user moving on (Next) from the partner leaving, though the server requeues both alike', () => {
    const inCall = reducer(reducer(fresh(), a.roomSetup(setup)), a.callConnected('r1'));
    // Next: a new search with the partner still on screen, then the server's requeue.
    const next = reducer(reducer(inCall, a.searchStarted()), a.searching({ requeued: true }));
    expect(next).toMatchObject({ phase: 'searching', movedOn: true, isRequeuing: true });
    // The partner left and the server searched again by itself: not this user's doing.
    const left = reducer(reducer(inCall, a.peerLeft()), a.searching({ requeued: true }));
    expect(left).toMatchObject({ phase: 'searching', movedOn: false, isRequeuing: true });
    // A first search from nothing is neither.
    expect(reducer(fresh(), a.searchStarted()).movedOn).toBe(false);
    // The next match starts afresh.
    expect(reducer(next, a.roomSetup(setup)).movedOn).toBe(false);
  });

  it('a call connects only for the current room', () => {
    let s = reducer(fresh(), a.roomSetup(setup));
    s = reducer(s, a.callConnected('old-room'));
    expect(s.phase).toBe('connecting');
    s = reducer(s, a.callConnected('r1'));
    expect(s.phase).toBe('inRoom');
  });

  it('the partner leaving or the connection dropping ends the room with the matching flag', () => {
    const inCall = reducer(reducer(fresh(), a.roomSetup(setup)), a.callConnected('r1'));
    expect(reducer(inCall, a.peerLeft())).toMatchObject({ phase: 'ended', isPeerDisconnected: true });
    expect(reducer(inCall, a.connectionLost())).toMatchObject({ phase: 'ended', userIsDisconnected: true });
    expect(reducer(fresh(), a.connectionLost()).phase).toBe('idle');
  });

  it('a call problem is kept only for its own room and its own attempt', () => {
    const s = reducer(fresh(), a.roomSetup(setup));
    expect(reducer(s, a.callFailed({ roomId: 'other', attempt: 0, problem: 'x', redial: true })).callProblem).toBeNull();
    expect(reducer(s, a.callFailed({ roomId: 'r1', attempt: 0, problem: 'lost', redial: false }))).toMatchObject({
      callProblem: 'lost',
      callRedialing: false,
    });
    // The old attempt's call ending late, after the next attempt began, is old news.
    const next = reducer(s, a.callRedialed({ roomId: 'r1', attempt: 1 }));
    expect(reducer(next, a.callFailed({ roomId: 'r1', attempt: 0, problem: 'late', redial: true }))).toBe(next);
  });

  it('a failed call is placed again under the next attempt', () => {
    let s = reducer(reducer(fresh(), a.roomSetup(setup)), a.callConnected('r1'));
    s = reducer(s, a.callFailed({ roomId: 'r1', attempt: 0, problem: 'lost', redial: true }));
    expect(s).toMatchObject({ callProblem: 'lost', callRedialing: true, callAttempt: 0 });
    // Another room's, or an attempt already under way, changes nothing.
    expect(reducer(s, a.callRedialed({ roomId: 'other', attempt: 1 }))).toBe(s);
    expect(reducer(s, a.callRedialed({ roomId: 'r1', attempt: 0 }))).toBe(s);
    s = reducer(s, a.callRedialed({ roomId: 'r1', attempt: 1 }));
    expect(s).toMatchObject({ phase: 'connecting', callProblem: null, callRedialing: false, callAttempt: 1 });
    // A new room starts from the first attempt, or from the one the server names.
    expect(reducer(s, a.roomSetup({ ...setup, roomId: 'r2' }))).toMatchObject({ callAttempt: 0, callProblem: null });
    expect(reducer(s, a.roomSetup({ ...setup, roomId: 'r2', callAttempt: 2 })).callAttempt).toBe(2);
  });

  it('a refused redial leaves the problem standing (or names it, for the side whose call just stopped); an ended room is not placed again', () => {
    let s = reducer(reducer(fresh(), a.roomSetup(setup)), a.callFailed({ roomId: 'r1', attempt: 0, problem: 'lost', redial: true }));
    expect(reducer(s, a.redialRefused({ roomId: 'r1', problem: 'given up' }))).toMatchObject({ callProblem: 'lost', callRedialing: false });
    const quiet = reducer(fresh(), a.roomSetup(setup));
    expect(reducer(quiet, a.redialRefused({ roomId: 'r1', problem: 'given up' })).callProblem).toBe('given up');
    expect(reducer(quiet, a.redialRefused({ roomId: 'other', problem: 'given up' })).callProblem).toBeNull();
    s = reducer(s, a.peerLeft());
    expect(reducer(s, a.callRedialed({ roomId: 'r1', attempt: 1 })).callAttempt).toBe(0);
  });

  it('a search goes on through a dropped connection', () => {
    const s = reducer(fresh(), a.searchStarted());
    expect(reducer(s, a.connectionDropped())).toMatchObject({ phase: 'searching', userIsDisconnected: false });
  });
});
