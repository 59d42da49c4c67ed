import { describe, expect, it } from 'vitest';
import { testUser } from '../testing/chatRig.ts';
import type { RoomEvents } from './events.ts';
import { Rooms } from './rooms.ts';

const noop = () => undefined;

/** Rooms over an outbox that ignores everything, recording the events they emit. */
function recorded() {
  const rooms = new Rooms({ outbox: { memberLeft: noop, memberAway: noop, memberBack: noop }, resumeGraceMs: 10_000 });
  const events: Array<[keyof RoomEvents, unknown]> = [];
  for (const name of ['matched', 'left', 'held', 'resumed'] as const) rooms.on(name, (e) => events.push([name, e]));
  for (const id of ['a', 'b']) rooms.connect(id, testUser(`u${id}`));
  return { rooms, events };
}

describe('room events', () => {
  it('tell subscribers who is in which room: matched, held, resumed on a new socket, left', () => {
    const { rooms, events } = recorded();
    rooms.open('r1', 'videoChat', ['a', 'b']);
    const a = { socketId: 'a', userId: 'ua' };
    const b = { socketId: 'b', userId: 'ub' };
    expect(events.splice(0)).toEqual([['matched', { roomId: 'r1', kind: 'videoChat', members: [a, b] }]]);

    expect(rooms.disconnect('a', 'ua:tab')).toBe(true);
    expect(events.splice(0)).toEqual([['held', { roomId: 'r1', kind: 'videoChat', member: a, key: 'ua:tab' }]]);

    rooms.connect('a2', testUser('ua'));
    expect(rooms.resume('a2', 'ua:tab', 'r1')).toEqual({ ok: true, partnerAway: false });
    const a2 = { socketId: 'a2', userId: 'ua' };
    expect(events.splice(0)).toEqual([
      ['resumed', { roomId: 'r1', kind: 'videoChat', member: a2, previousSocketId: 'a', members: [a2, b] }],
    ]);
    expect(rooms.roomOf('b')?.members).toEqual(['a2', 'b']);

    rooms.leave('b', 'skip');
    expect(events.splice(0)).toEqual([
      ['left', { roomId: 'r1', kind: 'videoChat', member: b, by: 'b', reason: 'skip', held: false }],
      ['left', { roomId: 'r1', kind: 'videoChat', member: a2, by: 'b', reason: 'skip', held: false }],
    ]);
    expect(rooms.roomOf('a2')).toBeUndefined();
    rooms.close();
  });

  it('a held member whose partner leaves is out of the room as held; a drop outside any room holds nothing', () => {
    const { rooms, events } = recorded();
    rooms.open('r1', 'textChat', ['a', 'b']);
    rooms.disconnect('a', 'ua:tab');
    events.splice(0);
    rooms.disconnect('b');
    expect(events).toEqual([
      ['left', { roomId: 'r1', kind: 'textChat', member: { socketId: 'b', userId: 'ub' }, by: 'b', reason: 'disconnected', held: false }],
      ['left', { roomId: 'r1', kind: 'textChat', member: { socketId: 'a', userId: 'ua' }, by: 'b', reason: 'disconnected', held: true }],
    ]);
    rooms.connect('c', testUser('uc'));
    expect(rooms.disconnect('c', 'uc:tab')).toBe(false);
    expect(events).toHaveLength(2);
    rooms.close();
  });
});
