import { describe, expect, it, vi } from 'vitest';
import type { Socket as ServerSocket } from 'socket.io';
import { chatEvents } from '@parley/contract/matchmaking';
import { rtcEvents } from '@parley/contract/videoChat';
import { REDIAL_DELAYS_MS } from './videoChatRoom';
import { setUpVideoChat } from './videoChatTest';

// A failed call placed again (`video:redial`): when it is asked for, and a refusal.
const c = setUpVideoChat();

describe('video chat: placing a failed call again', () => {
  it('a failed call is placed again: asked for after a short wait, once the stranger is back, and never for a missing camera', async () => {
    await c.inRoom();
    const asks: unknown[] = [];
    c.server.on(rtcEvents.redial, (p: unknown) => asks.push(p));
    c.store.dispatch(c.room.callFailed({ roomId: 'room-1', attempt: 0, problem: 'No camera.', redial: false }));
    await new Promise((r) => setTimeout(r, 50));
    expect(asks).toEqual([]);

    c.server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(c.store.getState().videoChat.partnerAway).toBe(true));
    c.store.dispatch(c.room.callFailed({ roomId: 'room-1', attempt: 0, problem: 'Lost connection to server.', redial: true }));
    expect(c.store.getState().videoChat).toMatchObject({ callRedialing: true, callProblem: 'Lost connection to server.' });
    await new Promise((r) => setTimeout(r, 50));
    expect(asks).toEqual([]);
    c.server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    // After a short wait (REDIAL_DELAYS_MS), so that a briefly unreachable signalling server does not use up the attempts.
    await new Promise((r) => setTimeout(r, REDIAL_DELAYS_MS[0] / 2));
    expect(asks).toEqual([]);
    await vi.waitFor(() => expect(asks).toEqual([{ roomId: 'room-1', attempt: 0 }]), { timeout: REDIAL_DELAYS_MS[0] + 1000 });

    c.server.emit(rtcEvents.redial, { roomId: 'room-1', attempt: 1 });
    await vi.waitFor(() =>
      expect(c.store.getState().videoChat).toMatchObject({ callAttempt: 1, callRedialing: false, callProblem: null, phase: 'connecting' }),
    );
    // A malformed answer is not applied.
    c.server.emit(rtcEvents.redial, { roomId: 'room-1', attempt: 'x' });
    await new Promise((r) => setTimeout(r, 50));
    expect(c.store.getState().videoChat.callAttempt).toBe(1);
  });

  it('a refused redial leaves the problem on screen without a toast', async () => {
    await c.inRoom();
    c.server.on(rtcEvents.redial, () =>
      c.server.emit(chatEvents.error, {
        event: rtcEvents.redial,
        code: 'call_attempts_exhausted',
        message: 'The video call could not be set up.',
      }),
    );
    c.store.dispatch(c.room.callFailed({ roomId: 'room-1', attempt: 0, problem: 'Your partner could not be reached.', redial: true }));
    await vi.waitFor(
      () => expect(c.store.getState().videoChat).toMatchObject({ callRedialing: false, callProblem: 'Your partner could not be reached.' }),
      {
        timeout: REDIAL_DELAYS_MS[0] + 1000,
      },
    );
    expect(c.notices).toEqual([]);
  });

  it('a call that failed during a drop is asked for again once the room is taken back', async () => {
    await c.inRoom();
    let answerResume!: () => void;
    const resumeAnswered = new Promise<void>((resolve) => (answerResume = resolve));
    const asks: unknown[] = [];
    const again = new Promise<ServerSocket>((resolve) =>
      c.io.once('connection', (sock: ServerSocket) => {
        sock.on(rtcEvents.redial, (p: unknown) => asks.push(p));
        sock.on(
          chatEvents.resume,
          (_p: unknown, ack: (a: unknown) => void) => void resumeAnswered.then(() => ack({ ok: true, partnerAway: false })),
        );
        resolve(sock);
      }),
    );
    c.server.conn.close();
    c.server = await again;
    expect(c.store.getState().videoChat.reconnecting).toBe(true);
    c.store.dispatch(c.room.callFailed({ roomId: 'room-1', attempt: 0, problem: 'Lost connection to server.', redial: true }));
    await new Promise((r) => setTimeout(r, 50));
    expect(asks).toEqual([]);
    answerResume();
    await vi.waitFor(() => expect(asks).toEqual([{ roomId: 'room-1', attempt: 0 }]), { timeout: REDIAL_DELAYS_MS[0] + 1000 });
  });
});
