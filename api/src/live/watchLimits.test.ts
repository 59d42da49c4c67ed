import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSdp } from '@parley/contract/live';
import { ANSWER_TIMEOUT_MS, LiveStreams, type Forwarder, type Later } from './streams.ts';
import { PORTS_EXHAUSTED_MESSAGE, SfuMeter, StreamForwarder } from './sfu.ts';
import { networkOf } from './watchLimits.ts';
import { startLocalStun } from './localStun.ts';
import { nodeViewer } from './nodePeers.ts';

let stun: Awaited<ReturnType<typeof startLocalStun>>;
beforeAll(async () => {
  stun = await startLocalStun();
});
afterAll(() => stun.close());
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

/** A clock moved by hand: `later` remembers what is due, `pass` runs what falls due. */
function handClock() {
  let now = 0;
  const due: Array<{ at: number; run: () => void; cancelled: boolean }> = [];
  const later: Later = (run, ms) => {
    const t = { at: now + ms, run, cancelled: false };
    due.push(t);
    return () => void (t.cancelled = true);
  };
  return {
    later,
    pass(ms: number) {
      now += ms;
      for (const t of due.splice(0)) {
        if (t.cancelled) continue;
        if (t.at <= now) t.run();
        else due.push(t);
      }
    },
  };
}

/** Waits for the SFU's count to settle (a connection's close releases its sockets asynchronously). */
async function until(check: () => boolean) {
  const end = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function liveWith(opts: { forwarder: () => Forwarder; perUser?: number; perAddress?: number }) {
  const clock = handClock();
  const expired: string[] = [];
  const streams = new LiveStreams({
    forwarder: opts.forwarder,
    outbox: { viewers: () => undefined, ended: () => undefined, dropped: () => undefined, expired: (key) => expired.push(key) },
    later: clock.later,
    watchLimits: { perUser: opts.perUser ?? 3, perAddress: opts.perAddress ?? 50 },
  });
  open.push(streams);
  const { roomId } = streams.goLive({ userId: 'caster', username: 'caster', avatar: '' }, { title: 'Hi', category: 'Music' });
  return { streams, clock, expired, roomId };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: { code?: string; message?: string }) => ({ code: err.code, message: err.message }),
  );

describe('watch limits on the SFU', () => {
  it('refuses one account’s watches beyond its share, whatever its sockets, and frees the unanswered ones’ ports when the time is up', async () => {
    const meter = new SfuMeter();
    const { streams, clock, expired, roomId } = liveWith({
      forwarder: () => new StreamForwarder({ stunUrl: stun.url, meter }),
      perUser: 3,
    });
    // A real viewer who answers and connects keeps watching when the time is up.
    const honest = nodeViewer(stun.url);
    open.push(honest);
    const joined = await streams.watch('honest', 'h1', roomId, '198.51.100.7');
    await streams.answer('h1', roomId, await honest.answer(joined.offer!));
    await honest.connected;

    // Five sockets of one account ask at once and never answer.
    const keys = ['m1', 'm2', 'm3', 'm4', 'm5'];
    const asks = await Promise.all(keys.map((k) => refusal(streams.watch('mallory', k, roomId, '203.0.113.9'))));
    expect(asks.filter((a) => a === undefined)).toHaveLength(3);
    expect(asks.filter((a) => a !== undefined)).toEqual([
      {
        code: 'too_many_watches',
        message: 'You are already watching live video in 3 tabs or streams. Close one of them to watch this stream.',
      },
      {
        code: 'too_many_watches',
        message: 'You are already watching live video in 3 tabs or streams. Close one of them to watch this stream.',
      },
    ]);
    expect(meter.openPeers).toBe(4);
    const portsHeld = meter.boundPorts;
    expect(portsHeld).toBeGreaterThanOrEqual(4);
    // Two people watch, however many sockets one of them holds.
    expect(streams.get(roomId).viewers).toBe(2);

    clock.pass(ANSWER_TIMEOUT_MS - 1);
    expect(meter.openPeers).toBe(4);
    clock.pass(1);
    await until(() => meter.openPeers === 1);
    expect(meter.boundPorts).toBe(portsHeld / 4);
    expect(expired.sort()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5'].filter((k) => !asks[keys.indexOf(k)]));
    expect(streams.get(roomId).viewers).toBe(1);
    expect(streams.watchCount).toBe(1);
    // An answer after the offer was withdrawn is refused; the account may ask again.
    const late = expired[0]!;
    expect(await refusal(streams.answer(late, roomId, { type: 'answer', sdp: 'v=0' }))).toMatchObject({ code: 'not_watching' });
    await streams.watch('mallory', 'm6', roomId, '203.0.113.9');
    expect(meter.openPeers).toBe(2);
  });

  it('refuses with a clear message when the port range is exhausted, and takes viewers again once ports are free', async () => {
    const meter = new SfuMeter();
    let logged = 0;
    // Ports outside the system's ephemeral range; one already in use elsewhere is skipped by the SFU, so fill until refused.
    const first = 20_000 + Math.floor(Math.random() * 4000) * 2;
    const { streams, clock, roomId } = liveWith({
      forwarder: () => new StreamForwarder({ stunUrl: stun.url, meter, portRange: [first, first + 3], onPortsExhausted: () => logged++ }),
    });
    let refused: { code?: string; message?: string } | undefined;
    let watching = 0;
    for (let i = 0; i < 6 && !refused; i++) {
      refused = await refusal(streams.watch(`viewer${i}`, `k${i}`, roomId));
      if (!refused) watching++;
    }
    expect(refused).toEqual({ code: 'live_full', message: PORTS_EXHAUSTED_MESSAGE });
    expect(watching).toBeGreaterThan(0);
    expect(meter.portsExhausted).toBe(1);
    expect(logged).toBe(1);
    // The refused connection holds nothing, and its person is not counted.
    expect(meter.openPeers).toBe(watching);
    expect(streams.get(roomId).viewers).toBe(watching);

    clock.pass(ANSWER_TIMEOUT_MS);
    await until(() => meter.openPeers === 0 && meter.boundPorts === 0);
    expect(await refusal(streams.watch('latecomer', 'late', roomId))).toBeUndefined();
    expect(meter.openPeers).toBe(1);
  });
});

/** A stand-in forwarder: the rules alone, without media. */
const standIn = (): Forwarder => ({
  publish: async (): Promise<LiveSdp> => ({ type: 'answer', sdp: 'v=0' }),
  addViewer: async (): Promise<LiveSdp> => ({ type: 'offer', sdp: 'v=0' }),
  answerViewer: async () => undefined,
  removeViewer: () => undefined,
  close: async () => undefined,
});

describe('viewer counts', () => {
  it('list a person watching in several tabs once, in the directory of streams', async () => {
    const { streams, roomId } = liveWith({ forwarder: standIn });
    await streams.publish('caster', roomId, { type: 'offer', sdp: 'v=0' });
    await streams.watch('fan', 'tab1', roomId);
    await streams.watch('fan', 'tab2', roomId);
    await streams.watch('fan', 'tab2', roomId);
    expect((await streams.listAll()).map((s) => s.viewers)).toEqual([1]);
    await streams.watch('other', 'k', roomId);
    streams.leave('tab1', roomId);
    expect((await streams.listAll()).map((s) => s.viewers)).toEqual([2]);
    streams.leave('tab2', roomId);
    expect((await streams.listAll()).map((s) => s.viewers)).toEqual([1]);
  });
});

describe('one socket asking twice at once', () => {
  it('makes one offer after the other, and leaves no one counted behind', async () => {
    const offers: string[] = [];
    const { streams, roomId } = liveWith({
      forwarder: () => ({
        ...standIn(),
        addViewer: async (id: string): Promise<LiveSdp> => (offers.push(id), { type: 'offer', sdp: 'v=0' }),
      }),
    });
    const twice = await Promise.all([refusal(streams.watch('fan', 'tab', roomId)), refusal(streams.watch('fan', 'tab', roomId))]);
    expect(twice).toEqual([undefined, undefined]);
    expect(offers).toEqual(['tab', 'tab']);
    expect(streams.get(roomId).viewers).toBe(1);
    streams.leave('tab', roomId);
    expect(streams.get(roomId).viewers).toBe(0);
    expect(streams.watchCount).toBe(0);
  });
});

describe('watch limits by address', () => {
  it('counts an address’s watches across accounts, an IPv6 /64 as one address', async () => {
    const { streams, roomId } = liveWith({ forwarder: standIn, perAddress: 2 });
    await streams.watch('a', 'ka', roomId, '2001:db8:1:2::10');
    await streams.watch('b', 'kb', roomId, '2001:0db8:0001:0002:ffff::1');
    expect(await refusal(streams.watch('c', 'kc', roomId, '2001:db8:1:2:aaaa::3'))).toEqual({
      code: 'too_many_watches_address',
      message: 'Too many people on your network are watching live video on this server. Try again in a few minutes.',
    });
    // Another network is not affected, and a watch that ends gives its place back.
    expect(await refusal(streams.watch('c', 'kc', roomId, '2001:db8:1:3::3'))).toBeUndefined();
    streams.leave('ka', roomId);
    expect(await refusal(streams.watch('d', 'kd', roomId, '2001:db8:1:2::99'))).toBeUndefined();
  });

  it('reads an address’s network', () => {
    expect(networkOf('203.0.113.9')).toBe('203.0.113.9');
    expect(networkOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('2001:DB8:0:0:1::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('not an address')).toBeUndefined();
  });
});
