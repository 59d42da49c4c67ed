import { describe, expect, it, vi } from 'vitest';
import type { LiveSdp } from '@parley/contract/live';
import { LiveStreams, type Forwarder } from './streams.ts';
import { memoryStreamDirectory } from './directory.ts';

/** A forwarder that records what the rules asked of it: its peers and whether it was closed. */
function recordingForwarder() {
  const peers = new Set<string>();
  const f = {
    closed: false,
    peers,
    publish: async (): Promise<LiveSdp> => ({ type: 'answer', sdp: 'v=0' }),
    addViewer: async (id: string): Promise<LiveSdp> => (peers.add(id), { type: 'offer', sdp: 'v=0' }),
    answerViewer: async () => undefined,
    removeViewer: (id: string) => void peers.delete(id),
    close: async () => {
      f.closed = true;
      peers.clear();
    },
  };
  return f;
}

function setup() {
  const forwarders: Array<ReturnType<typeof recordingForwarder>> = [];
  const events: string[] = [];
  const wentLive: string[] = [];
  const streams = new LiveStreams({
    forwarder: () => {
      const f = recordingForwarder();
      forwarders.push(f);
      return f satisfies Forwarder;
    },
    outbox: {
      viewers: (roomId, n) => events.push(`viewers ${n}`),
      ended: () => events.push('ended'),
      dropped: (key) => events.push(`dropped ${key}`),
    },
    wentLive: (s) => wentLive.push(s.roomId),
  });
  return { streams, forwarders, events, wentLive };
}
const owner = { userId: 'o', username: 'olive', avatar: '' };

describe('LiveStreams', () => {
  it('announces a stream once its media arrives, and only then lists it', async () => {
    const { streams, wentLive } = setup();
    const s = streams.goLive(owner, { title: 'Hi', category: 'Music' });
    expect(streams.list()).toEqual([]);
    await streams.publish('o', s.roomId, { type: 'offer', sdp: 'v=0' });
    await streams.publish('o', s.roomId, { type: 'offer', sdp: 'v=0' });
    expect(wentLive).toEqual([s.roomId]);
    expect(streams.list().map((x) => x.roomId)).toEqual([s.roomId]);
  });

  it('sorts the list by viewers', async () => {
    const { streams } = setup();
    const a = streams.goLive(owner, { title: 'A', category: 'Music' });
    const b = streams.goLive({ ...owner, userId: 'p' }, { title: 'B', category: 'Music' });
    await streams.publish('o', a.roomId, { type: 'offer', sdp: '' });
    await streams.publish('p', b.roomId, { type: 'offer', sdp: '' });
    await streams.watch('v1', 'k1', b.roomId);
    expect(streams.list().map((x) => x.title)).toEqual(['B', 'A']);
  });

  it('ending closes the forwarder and its peers, and forgets viewers and the owner’s slot', async () => {
    const { streams, forwarders, events } = setup();
    const s = streams.goLive(owner, { title: 'Hi', category: 'Music' });
    await streams.watch('v1', 'k1', s.roomId);
    await streams.watch('v2', 'k2', s.roomId);
    streams.leave('k2', s.roomId);
    expect(forwarders[0]!.peers.size).toBe(1);
    await streams.end('o', s.roomId);
    expect(forwarders[0]!.closed).toBe(true);
    expect(forwarders[0]!.peers.size).toBe(0);
    expect(streams.liveCount).toBe(0);
    expect(streams.ownStream('o')).toBeUndefined();
    expect(events).toEqual(['viewers 1', 'viewers 2', 'viewers 1', 'ended']);
    expect(streams.get(s.roomId).endedAt).toEqual(expect.any(Number));
    await expect(streams.watch('v3', 'k3', s.roomId)).rejects.toMatchObject({ code: 'stream_not_found' });
  });

  it('a process that drains ends every stream it holds: viewers told, the ended card kept in the directory', async () => {
    const directory = memoryStreamDirectory();
    const events: string[] = [];
    const streams = new LiveStreams({
      forwarder: () => recordingForwarder(),
      outbox: { viewers: () => undefined, ended: (roomId) => events.push(`ended ${roomId}`), dropped: () => undefined },
      directory,
      node: 'p0',
    });
    const a = streams.goLive(owner, { title: 'A', category: 'Music' });
    const b = streams.goLive({ ...owner, userId: 'p' }, { title: 'B', category: 'Music' });
    await streams.publish('o', a.roomId, { type: 'offer', sdp: '' });
    await streams.watch('v1', 'k1', a.roomId);
    expect(await streams.endAll()).toBe(2);
    expect(events.sort()).toEqual([`ended ${a.roomId}`, `ended ${b.roomId}`].sort());
    expect(streams.liveCount).toBe(0);
    await vi.waitFor(async () => expect(await directory.get(a.roomId)).toMatchObject({ endedAt: expect.any(Number), node: 'p0' }));
    expect(await directory.list()).toEqual([]);
  });

  it('a viewer’s closed connection leaves; the broadcaster’s ends the stream unless they come back in time', async () => {
    const { streams, events } = setup();
    const s = streams.goLive(owner, { title: 'Hi', category: 'Music' });
    await streams.watch('v1', 'k1', s.roomId);
    streams.disconnected('k1', 'v1', () => false);
    expect(streams.get(s.roomId).viewers).toBe(0);
    streams.disconnected('ko', 'o', () => false);
    expect(streams.pendingTimers).toBe(0);
    streams.disconnected('ko', 'o', (roomId) => roomId === s.roomId, 30);
    expect(streams.ownerReturned('o')).toBe(s.roomId);
    await new Promise((r) => setTimeout(r, 60));
    expect(streams.liveCount).toBe(1);
    streams.disconnected('ko', 'o', (roomId) => roomId === s.roomId, 30);
    expect(streams.pendingTimers).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(streams.liveCount).toBe(0);
    expect(streams.pendingTimers).toBe(0);
    expect(events.at(-1)).toBe('ended');
  });

  it('ending while the broadcaster is away leaves no timer behind', async () => {
    const { streams } = setup();
    const s = streams.goLive(owner, { title: 'Hi', category: 'Music' });
    streams.disconnected('ko', 'o', () => true, 60_000);
    expect(streams.pendingTimers).toBe(1);
    await streams.end('o', s.roomId);
    expect(streams.pendingTimers).toBe(0);
  });

  it('a ban moderation stored is followed: the viewer is dropped and cannot come back; a broadcaster cannot watch their own stream', async () => {
    const { streams, events } = setup();
    const s = streams.goLive(owner, { title: 'Hi', category: 'Music' });
    await streams.watch('v1', 'k1', s.roomId);
    await streams.chatLog.insert({ roomId: s.roomId, senderId: 'v1', senderName: 'vee', text: 'spam', clientId: 'c1', mentions: [] });
    // What they wrote leaves with them.
    expect(streams.moderated(s.roomId, { action: 'ban', userId: 'v1' })).toMatchObject([{ text: '', deleted: true }]);
    expect(streams.chatAccess(s.roomId, 'v1')).toMatchObject({ banned: true });
    expect(events).toContain('dropped k1');
    await expect(streams.watch('v1', 'k9', s.roomId)).rejects.toMatchObject({ code: 'banned' });
    await expect(streams.watch('o', 'k0', s.roomId)).rejects.toMatchObject({ code: 'own_stream' });
    expect(streams.get(s.roomId).viewers).toBe(0);
  });

  it('a stream starts with its broadcaster’s channel as stored: moderators (named), bans, running mutes, slow mode', async () => {
    const { streams } = setup();
    const now = Date.now();
    const s = streams.goLive(
      owner,
      { title: 'Hi', category: 'Music' },
      {
        roomId: 'chan',
        moderators: [{ userId: 'm1', username: 'mia', avatar: '' }],
        banned: ['b1'],
        muted: [{ userId: 'q1', mutedUntil: now + 60_000 }],
        slowModeS: 5,
      },
    );
    expect(streams.channelOf(s.roomId)).toBe('chan');
    await expect(streams.watch('b1', 'kb', s.roomId)).rejects.toMatchObject({ code: 'banned' });
    await streams.watch('q1', 'kq', s.roomId);
    expect(streams.chatAccess(s.roomId, 'q1')).toMatchObject({ member: { mutedUntil: now + 60_000 }, room: { slowModeS: 5 } });
    expect(streams.chatPeople(s.roomId, ['m1'])).toContainEqual({
      userId: 'm1',
      username: 'mia',
      avatar: '',
      role: 'moderator',
      here: true,
    });
    streams.moderated(s.roomId, { action: 'mute', userId: 'q1', mutedUntil: null });
    expect(streams.chatAccess(s.roomId, 'q1')?.member?.mutedUntil).toBeNull();
  });
});

describe('time in a stream', () => {
  it('reports each viewer’s and the broadcaster’s time when they leave or the stream ends', async () => {
    let now = 1_000_000;
    const sessions: unknown[] = [];
    const streams = new LiveStreams({
      forwarder: () => ({
        publish: async () => ({ type: 'answer', sdp: 'v=0' }),
        addViewer: async () => ({ type: 'offer', sdp: 'v=0' }),
        answerViewer: async () => undefined,
        removeViewer: () => undefined,
        close: async () => undefined,
      }),
      outbox: { viewers: () => undefined, ended: () => undefined, dropped: () => undefined },
      now: () => now,
      sessionEnded: (s) => sessions.push(s),
    });
    const stream = streams.goLive({ userId: 'b', username: 'bea', avatar: '' }, { title: 'Jazz', category: 'Music' });
    await streams.publish('b', stream.roomId, { type: 'offer', sdp: 'v=0' });
    await streams.watch('v1', 'k1', stream.roomId);
    await streams.watch('v2', 'k2', stream.roomId);
    now += 90_000;
    streams.leave('k1', stream.roomId);
    streams.leave('k1', stream.roomId);
    now += 60_000;
    await streams.end('b', stream.roomId);
    const { roomId } = stream;
    expect(sessions).toEqual([
      { roomId, userId: 'v1', role: 'viewer', from: 1_000_000, to: 1_090_000 },
      { roomId, userId: 'v2', role: 'viewer', from: 1_000_000, to: 1_150_000 },
      { roomId, userId: 'b', role: 'broadcaster', from: 1_000_000, to: 1_150_000 },
    ]);
  });
});
