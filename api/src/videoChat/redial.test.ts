import { describe, expect, it } from 'vitest';
import { chatEvents } from '@parley/contract/matchmaking';
import { rtcEvents, MAX_CALL_ATTEMPTS } from '@parley/contract/videoChat';
import { anySearch, chatting, testUser } from '../testing/chatRig.ts';

describe('placing a video call again', () => {
  const video = { ...anySearch, roomType: 'videoChat' as const, automaticReconnect: false };
  const redials = (to: (id: string) => unknown[][]) => to('a').filter(([ev]) => ev === rtcEvents.redial);

  it('answers the first ask of an attempt to both sides, and tells a late asker the current attempt', async () => {
    const { sessions, roomId, to } = await chatting({ search: video });
    sessions.redial('a', { roomId, attempt: 0 });
    expect(to('a').at(-1)).toEqual([rtcEvents.redial, { roomId, attempt: 1 }]);
    expect(to('b').at(-1)).toEqual([rtcEvents.redial, { roomId, attempt: 1 }]);
    // b asked for attempt 0 too, before it heard: only b hears again, nothing is placed twice.
    sessions.redial('b', { roomId, attempt: 0 });
    expect(to('b').filter(([ev]) => ev === rtcEvents.redial)).toEqual([
      [rtcEvents.redial, { roomId, attempt: 1 }],
      [rtcEvents.redial, { roomId, attempt: 1 }],
    ]);
    expect(redials(to)).toHaveLength(1);
    // An attempt that was never placed places nothing either: the asker learns the current one.
    sessions.redial('a', { roomId, attempt: 2 });
    expect(redials(to)).toEqual([
      [rtcEvents.redial, { roomId, attempt: 1 }],
      [rtcEvents.redial, { roomId, attempt: 1 }],
    ]);
    expect(to('b').filter(([ev]) => ev === rtcEvents.redial)).toHaveLength(2);
    await sessions.close();
  });

  it('a page that takes its room back learns the attempt its call was placed again under meanwhile', async () => {
    const { sessions, roomId } = await chatting({ search: video, resumeGraceMs: 10_000 });
    sessions.redial('b', { roomId, attempt: 0 }); // a's socket is already dead; the server does not know yet
    await sessions.disconnect('a', 'ua:tab1');
    sessions.connect('a2', testUser('ua'));
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: true, partnerAway: false, callAttempt: 1 });
    await sessions.close();
  });

  it('stops after MAX_CALL_ATTEMPTS, waits for an away partner, and refuses other rooms and text rooms', async () => {
    const { sessions, roomId, to } = await chatting({ search: video, resumeGraceMs: 10_000 });
    for (let attempt = 0; attempt < MAX_CALL_ATTEMPTS - 1; attempt++) sessions.redial('a', { roomId, attempt });
    expect(redials(to).at(-1)).toEqual([rtcEvents.redial, { roomId, attempt: MAX_CALL_ATTEMPTS - 1 }]);
    expect(() => sessions.redial('a', { roomId, attempt: MAX_CALL_ATTEMPTS - 1 })).toThrow(
      expect.objectContaining({ code: 'call_attempts_exhausted' }),
    );
    // The partner, whose call merely stopped, is told too.
    expect(to('b').at(-1)).toEqual([
      chatEvents.error,
      expect.objectContaining({ event: rtcEvents.redial, code: 'call_attempts_exhausted' }),
    ]);
    expect(() => sessions.redial('a', { roomId: 'another-room', attempt: 0 })).toThrow(expect.objectContaining({ code: 'not_in_room' }));
    sessions.connect('x', testUser('ux'));
    expect(() => sessions.redial('x', { roomId, attempt: 0 })).toThrow(expect.objectContaining({ code: 'not_in_room' }));
    await sessions.close();

    const away = await chatting({ search: video, resumeGraceMs: 10_000 });
    await away.sessions.disconnect('b', 'ub:tab1');
    expect(() => away.sessions.redial('a', { roomId: away.roomId, attempt: 0 })).toThrow(expect.objectContaining({ code: 'partner_away' }));
    away.sessions.connect('b2', testUser('ub'));
    expect(away.sessions.resume('b2', 'ub:tab1', away.roomId)).toEqual({ ok: true, partnerAway: false });
    away.sessions.redial('a', { roomId: away.roomId, attempt: 0 });
    expect(away.to('b2').at(-1)).toEqual([rtcEvents.redial, { roomId: away.roomId, attempt: 1 }]);
    await away.sessions.close();

    const text = await chatting();
    expect(() => text.sessions.redial('a', { roomId: text.roomId, attempt: 0 })).toThrow(expect.objectContaining({ code: 'not_in_room' }));
    await text.sessions.close();
  });
});
