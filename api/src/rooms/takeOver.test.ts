import { describe, expect, it } from 'vitest';
import { testUser } from '../testing/chatRig.ts';
import type { RoomCore } from './core.ts';
import { pairChats } from './pairPolicy.ts';
import { SharedRooms } from './sharedRooms.ts';

const noop = () => undefined;

/** This process ('p0') with a 1:1 chat whose other member, and its messages, are in process 'p1'. */
function chatHeldByP1() {
  const alive = new Set(['p0', 'p1']);
  const told: Array<{ roomId: string; holder: string }> = [];
  const rooms = new SharedRooms({
    outbox: { memberLeft: noop, memberAway: noop, memberBack: noop },
    peers: {
      home: 'p0',
      left: noop,
      taken: noop,
      gone: async () => true,
      alive: async (ids) => new Set(ids.filter((id) => alive.has(id))),
      holding: (e) => void told.push(e),
    },
  });
  const pair = pairChats({ rooms, core: () => ({ ended: noop }) as unknown as RoomCore, sign: () => 'receipt', allowMessage: () => true });
  rooms.connect('a', testUser('ua'));
  // The member in p1 arrived second: the first member of the room, whose process holds its messages.
  rooms.open('r1', 'textChat', ['b', 'a'], { members: { b: { userId: 'ub', home: 'p1' } }, announce: false });
  return { rooms, pair, alive, told };
}

describe('a 1:1 chat whose holding process died', () => {
  it('stays with its holder while that process lives', async () => {
    const { rooms, told } = chatHeldByP1();
    expect(rooms.holderOf('r1')).toBe('p1');
    expect(await rooms.takeOver('r1')).toBe('p1');
    expect(rooms.holderOf('r1')).toBe('p1');
    expect(told).toEqual([]);
  });

  it('is taken over once that process is dead: held here from then on, under ids above any the dead one gave', async () => {
    const { rooms, pair, alive, told } = chatHeldByP1();
    alive.delete('p1');
    const before = Date.now();
    expect(await rooms.takeOver('r1')).toBe('p0');
    expect(rooms.holderOf('r1')).toBe('p0');
    // The others are told, once.
    expect(await rooms.takeOver('r1')).toBe('p0');
    expect(told).toEqual([{ roomId: 'r1', holder: 'p0' }]);
    const m = await pair.log.insert({ roomId: 'r1', senderId: 'ua', senderName: 'ua', text: 'still there?', clientId: 'c1', mentions: [] });
    expect(m!.id).toBeGreaterThan(before);
  });

  it('another process having taken it over, this one forwards there and holds nothing', async () => {
    const { rooms, pair } = chatHeldByP1();
    rooms.remoteHolding('r1', 'p2');
    expect(rooms.holderOf('r1')).toBe('p2');
    expect(pair.log.lastId('r1')).toBe(0);
  });
});
