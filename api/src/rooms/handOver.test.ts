import { describe, expect, it } from 'vitest';
import { testUser } from '../testing/chatRig.ts';
import type { RoomCore } from './core.ts';
import { pairChats } from './pairPolicy.ts';
import { SharedRooms } from './sharedRooms.ts';
import { memoryRooms, type RoomStore } from './store.ts';

const noop = () => undefined;

/** A process ('p0' or 'p1') with its side of a 1:1 chat: member a in p0 (the first member: p0 holds it), b in p1. */
function processOf(home: 'p0' | 'p1') {
  const told: Array<{ roomId: string; holder: string; handedOver?: boolean }> = [];
  const rooms = new SharedRooms({
    outbox: { memberLeft: noop, memberAway: noop, memberBack: noop },
    peers: {
      home,
      left: noop,
      taken: noop,
      gone: async () => true,
      alive: async (ids) => new Set(ids),
      holding: (e) => void told.push(e),
    },
  });
  const pair = pairChats({ rooms, core: () => ({ ended: noop }) as unknown as RoomCore, sign: () => 'receipt', allowMessage: () => true });
  const seats = { a: { userId: 'ua', home: 'p0' }, b: { userId: 'ub', home: 'p1' } };
  if (home === 'p0') rooms.connect('a', testUser('ua'));
  else rooms.connect('b', testUser('ub'));
  rooms.open('r1', 'textChat', ['a', 'b'], { members: seats, announce: home === 'p0' });
  // What the room core writes through: the policy's log (it refuses changes while the chat is frozen).
  const log = pair.policies[0]!.log;
  const post = (senderId: string, clientId: string, text = clientId) =>
    log.insert({ roomId: 'r1', senderId, senderName: senderId, text, clientId, mentions: [] });
  return { rooms, pair, told, log, post };
}

describe('a 1:1 chat handed over by a process that drains', () => {
  it('moves with every acknowledged message under the same ids; a change while it moves is refused as retryable', async () => {
    const p0 = processOf('p0');
    const p1 = processOf('p1');
    expect(p0.rooms.holderOf('r1')).toBe('p0');
    expect(p0.rooms.heldHere()).toEqual([{ roomId: 'r1', kind: 'textChat', otherHomes: ['p1'] }]);
    expect(p1.rooms.heldHere()).toEqual([]);
    await p0.post('ua', 'c1');
    await p0.post('ub', 'c2');
    p0.pair.policies[0]!.reads!.mark('r1', 'ub', 1);

    const snapshot = p0.pair.handOver.freeze('r1');
    expect(snapshot).toMatchObject({ lastId: 2, reads: { ub: 1 } });
    // Posted while frozen: refused as retryable (the page resends it where the chat is held next).
    await expect(p0.post('ua', 'c3')).rejects.toMatchObject({ code: 'unavailable', message: 'The server is restarting. Try again.' });
    await expect(p0.log.edit('r1', 1, 'changed')).rejects.toMatchObject({ code: 'unavailable' });

    // p0 moves the holder (shared record, then every process told), p1 restores the log, then holds it.
    expect(await p0.rooms.handOver('r1', 'p1')).toBe(true);
    expect(p0.told).toEqual([{ roomId: 'r1', holder: 'p1', handedOver: true }]);
    expect(p0.rooms.holderOf('r1')).toBe('p1');
    p0.pair.handOver.thaw('r1', true);
    expect(p0.pair.log.lastId('r1')).toBe(0);
    expect(await p1.rooms.adoptHandedOver('r1', () => p1.pair.handOver.restore('r1', JSON.parse(JSON.stringify(snapshot))))).toBe(true);
    expect(p1.rooms.holderOf('r1')).toBe('p1');
    expect(p1.rooms.heldHere()).toEqual([{ roomId: 'r1', kind: 'textChat', otherHomes: ['p0'] }]);

    // The same messages, ids and positions: a page catches up from its last id.
    expect((await p1.log.after('r1', 0, 10)).messages.map((m) => [m.id, m.clientId])).toEqual([
      [1, 'c1'],
      [2, 'c2'],
    ]);
    expect(p1.pair.policies[0]!.reads!.positions('r1')).toEqual({ ub: 1 });
    // A resend of an acknowledged message is known by its client id; the refused one is new, next in line.
    expect((await p1.post('ub', 'c2'))!.id).toBe(2);
    expect((await p1.post('ua', 'c3'))!.id).toBe(3);
  });

  it('is not handed when the chat ended or another process took it over meanwhile', async () => {
    const p0 = processOf('p0');
    p0.rooms.remoteHolding('r1', 'p2');
    expect(p0.rooms.heldHere()).toEqual([]);
    expect(await p0.rooms.handOver('r1', 'p1')).toBe(false);
    expect(p0.told).toEqual([]);
    expect(p0.rooms.holderOf('r1')).toBe('p2');
  });
});

describe('both pages of a chat coming back on one process at once (their replica drained)', () => {
  it('each takes its seat back: the second does not undo the first', async () => {
    // The shared record (Redis) apart from this process's copies, as rooms/redisStore.ts keeps them.
    const shared = memoryRooms();
    const local = memoryRooms();
    const seat = (userId: string) => ({ userId, home: 'p0', key: `${userId}:tab` });
    shared.put({ roomId: 'r1', kind: 'textChat', members: ['a0', 'b0'], seats: [seat('ua'), seat('ub')], holder: 'p1' });
    const store: RoomStore = {
      ...local,
      load: async (roomId) => structuredClone(shared.room(roomId)),
      claim: (roomId, previous, socketId, s) => shared.claim(roomId, previous, socketId, s),
    };
    const rooms = new SharedRooms({
      outbox: { memberLeft: noop, memberAway: noop, memberBack: noop },
      store,
      peers: { home: 'p1', left: noop, taken: noop, gone: async () => true, alive: async (ids) => new Set(ids), holding: noop },
    });
    rooms.connect('a1', testUser('ua'), undefined, 'ua:tab');
    rooms.connect('b1', testUser('ub'), undefined, 'ub:tab');
    const answers = await Promise.all([rooms.resumeElsewhere('a1', 'ua:tab', 'r1'), rooms.resumeElsewhere('b1', 'ub:tab', 'r1')]);
    expect(answers.map((a) => a.ok)).toEqual([true, true]);
    expect(rooms.isMember('r1', 'ua', 'a1')).toBe(true);
    expect(rooms.isMember('r1', 'ub', 'b1')).toBe(true);
    expect(rooms.holderOf('r1')).toBe('p1');
  });
});
