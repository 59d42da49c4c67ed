import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { Cluster } from '../realtime/cluster.ts';
import type { Rooms } from './rooms.ts';
import type { RoomOps } from './storedSocket.ts';
import { pairRelay } from './pairRelay.ts';

const user = { userId: 'ua', username: 'ua', avatar: '', gender: 'male', age: 30, isVerified: true, premiumUser: 'free tier' } as const;

/** A process whose 1:1 chat is held by another one that never answers (it is busy, or gone). */
function relayToSilentPeer() {
  const published: Array<{ type: string; data: unknown }> = [];
  const cluster = {
    instanceId: 'here',
    publish: (type: string, data: unknown) => void published.push({ type, data }),
    on: () => undefined,
  } as unknown as Cluster;
  const rooms = { kindOf: () => 'textChat', holderOf: () => 'there' } as unknown as Rooms;
  const ops = { run: () => Promise.reject(new Error('not run here')) } as unknown as RoomOps;
  const relay = pairRelay({ cluster, rooms, ops: () => ops, log: pino({ level: 'silent' }), timeoutMs: 60_000 });
  return { relay, published };
}

describe('the 1:1 chats relay between processes', () => {
  it('closing answers every forwarded event still waiting, and refuses new ones at once', async () => {
    const { relay, published } = relayToSilentPeer();
    const waiting = relay.run('r1', 'room:post', 's1', user, { roomId: 'r1', clientId: 'c1', text: 'hi' });
    const refusal = waiting.then(
      () => 'answered',
      (err: unknown) => err,
    );
    expect(published).toMatchObject([{ type: 'pair:call', data: { to: 'there', event: 'room:post' } }]);
    relay.close();
    // Long before the 60 s timeout: the page hears the server is restarting and resends elsewhere.
    expect(await refusal).toMatchObject({ code: 'unavailable', message: 'The server is restarting. Try again.' });
    await expect(relay.run('r1', 'room:post', 's1', user, { roomId: 'r1', clientId: 'c2', text: 'again' })).rejects.toMatchObject({
      code: 'unavailable',
    });
    expect(published).toHaveLength(1);
  });
});
