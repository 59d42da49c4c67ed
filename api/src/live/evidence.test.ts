import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSdp } from '@parley/contract/live';
import { SAFETY_ERR } from '@parley/contract/safety';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../testing/database.ts';
import { RoomCore } from '../rooms/core.ts';
import { roomEvidence } from '../rooms/evidence.ts';
import { liveChatPolicy } from './chatPolicy.ts';
import { liveEncounters, watchOf } from './evidence.ts';
import { LiveStreams, type LiveSession } from './streams.ts';

// A room that is gone is looked for among the stored ones too: the core needs its database.
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase({ postgres: false });
}, 60_000);
afterAll(() => database.close());
const noFanout = { watch() {}, unwatch() {}, toRoom() {}, toUsers() {}, unwatchUser() {}, unwatchAll() {} };
/** A stream's chat as a report reads it: through the room core, as for every kind. */
const liveEvidence = (s: LiveStreams) => {
  const core: RoomCore = new RoomCore({
    db: database.db,
    fanout: noFanout,
    allowPost: () => true,
    policies: [liveChatPolicy(s, () => core)],
  });
  return roomEvidence(() => core, 'live');
};

const sdp: LiveSdp = { type: 'offer', sdp: 'v=0' };
/** Streams whose media side does nothing: these tests are about who is in a stream and what its chat said. */
function streams(sessionEnded?: (session: LiveSession) => void) {
  return new LiveStreams({
    sessionEnded,
    forwarder: () => ({
      publish: async () => sdp,
      addViewer: async () => sdp,
      answerViewer: async () => undefined,
      removeViewer: () => undefined,
      close: async () => undefined,
    }),
    outbox: { viewers: () => undefined, ended: () => undefined, dropped: () => undefined },
  });
}
const owner = { userId: 'owner', username: 'Olga', avatar: '' };
const viewer = { userId: 'viewer', username: 'Vic' };
const troll = { userId: 'troll', username: 'Tom' };

async function streamWithChat() {
  const s = streams();
  const { roomId } = s.goLive(owner, { title: 'Cooking', category: 'Just chatting' });
  await s.watch(viewer.userId, 'k1', roomId);
  await s.watch(troll.userId, 'k2', roomId);
  const say = async (u: { userId: string; username: string }, text: string) =>
    (await s.chatLog.insert({ roomId, senderId: u.userId, senderName: u.username, text, clientId: text, mentions: [] }))!;
  const said = [await say(viewer, 'nice pasta'), await say(troll, 'ugly words'), await say(owner, 'thanks')];
  return { s, roomId, said, evidence: liveEvidence(s) };
}

describe('a live stream’s chat as report evidence', () => {
  it('answers the stream’s messages by id, and those around a message', async () => {
    const { roomId, said, evidence } = await streamWithChat();
    expect((await evidence.byIds(roomId, [said[1]!.id, 9999])).map((m) => m.text)).toEqual(['ugly words']);
    expect((await evidence.around(roomId, said[1]!.id, 50)).map((m) => [m.senderId, m.text])).toEqual([
      ['viewer', 'nice pasta'],
      ['troll', 'ugly words'],
      ['owner', 'thanks'],
    ]);
    expect((await evidence.around(roomId, undefined, 2)).map((m) => m.text)).toEqual(['ugly words', 'thanks']);
  });

  it('lets a viewer or the broadcaster report, not someone who is not watching', async () => {
    const { roomId, evidence } = await streamWithChat();
    await expect(evidence.access(roomId, viewer.userId, troll.userId)).resolves.toEqual({ otherInRoom: true });
    await expect(evidence.access(roomId, owner.userId, troll.userId)).resolves.toEqual({ otherInRoom: true });
    await expect(evidence.access(roomId, viewer.userId, 'elsewhere')).resolves.toEqual({ otherInRoom: false });
    await expect(evidence.access(roomId, 'elsewhere', troll.userId)).rejects.toMatchObject({
      message: SAFETY_ERR.notInRoom,
      code: 'not_watching',
    });
  });

  it('has nothing once the stream ended', async () => {
    const { s, roomId, evidence } = await streamWithChat();
    await s.end(owner.userId, roomId);
    await expect(evidence.access(roomId, viewer.userId, troll.userId)).rejects.toMatchObject({ message: SAFETY_ERR.streamEnded });
  });
});

describe('a live stream as an encounter a report weighs', () => {
  it('counts watching the reported person’s stream, or chat both wrote in, not merely being in the same audience', async () => {
    const { s, roomId } = await streamWithChat();
    await s.publish(owner.userId, roomId, sdp);
    await s.watch('lurker', 'k3', roomId);
    const met = liveEncounters(s);
    expect(met(viewer.userId, owner.userId)).toBe(true);
    expect(met('lurker', owner.userId)).toBe(true);
    expect(met(viewer.userId, troll.userId)).toBe(true);
    // The broadcaster reads their chat.
    expect(met(owner.userId, troll.userId)).toBe(true);
    expect(met('lurker', troll.userId)).toBe(false);
    expect(met(troll.userId, 'lurker')).toBe(false);
    expect(met('elsewhere', owner.userId)).toBe(false);
    await s.end(owner.userId, roomId);
    expect(met(viewer.userId, owner.userId)).toBe(false);
  });

  it('names the broadcaster of a viewer’s watch that ended, so it can be remembered', async () => {
    const ended: LiveSession[] = [];
    const s = streams((session) => ended.push(session));
    const { roomId } = s.goLive(owner, { title: 'Cooking', category: 'Just chatting' });
    await s.publish(owner.userId, roomId, sdp);
    await s.watch(viewer.userId, 'k1', roomId);
    s.leave('k1', roomId);
    await s.watch(troll.userId, 'k2', roomId);
    await s.end(owner.userId, roomId);
    expect(ended.map((e) => watchOf(s, e))).toEqual([
      { streamId: roomId, viewerId: viewer.userId, broadcasterId: owner.userId },
      { streamId: roomId, viewerId: troll.userId, broadcasterId: owner.userId },
      undefined,
    ]);
  });
});
