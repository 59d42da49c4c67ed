import { describe, expect, it } from 'vitest';
import { testUser } from '../testing/chatRig.ts';
import type { RoomCore } from './core.ts';
import { pairChats } from './pairPolicy.ts';
import { SharedRooms } from './sharedRooms.ts';

const noop = () => undefined;

/** One process holding 1:1 chats; the room core's picture store only counts the chats it is told ended. */
function chats() {
  const rooms = new SharedRooms({ outbox: { memberLeft: noop, memberAway: noop, memberBack: noop } });
  const picturesEnded: string[] = [];
  const core = {
    ended: noop,
    chatPictures: { ended: async (roomId: string) => void picturesEnded.push(roomId) },
  } as unknown as RoomCore;
  const pair = pairChats({ rooms, core: () => core, sign: () => 'receipt', allowMessage: () => true });
  const open = (roomId: string) => {
    const [a, b] = [`${roomId}-a`, `${roomId}-b`];
    rooms.connect(a, testUser(`u${a}`));
    rooms.connect(b, testUser(`u${b}`));
    rooms.open(roomId, 'textChat', [a, b]);
    return { a, b };
  };
  const end = ({ a, b }: { a: string; b: string }) => {
    rooms.leave(a, 'skip');
    rooms.disconnect(b);
  };
  return { pair, open, end, picturesEnded };
}

describe('the pictures of a 1:1 chat that ends', () => {
  it('are let go only for chats where someone allowed pictures: the others cost no statement', async () => {
    const { pair, open, end, picturesEnded } = chats();
    const quiet = open('r1');
    const withPictures = open('r2');
    const withdrawn = open('r3');
    const pictures = pair.policies[0]!.pictures!;
    pictures.allow('r2', `u${withPictures.a}`, true);
    pictures.allow('r2', `u${withPictures.b}`, true);
    // Allowed, then withdrawn: a picture may have been sent meanwhile.
    pictures.allow('r3', `u${withdrawn.a}`, true);
    pictures.allow('r3', `u${withdrawn.a}`, false);
    end(quiet);
    end(withPictures);
    end(withdrawn);
    await Promise.resolve();
    expect(picturesEnded.sort()).toEqual(['r2', 'r3']);
  });
});
