import { afterAll, beforeAll, afterEach, describe, expect, it } from 'vitest';
import { BAD_REPORTS_TO_STEP_DOWN } from './layers.ts';
import { StreamForwarder } from './sfu.ts';
import { connectedWithin, nodeBroadcaster, nodeViewer, type NodeBroadcaster, type NodeViewer } from './nodePeers.ts';

import { startLocalStun } from './localStun.ts';

let stun: Awaited<ReturnType<typeof startLocalStun>>;
beforeAll(async () => {
  stun = await startLocalStun();
});
afterAll(() => stun.close());
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

// Media through DTLS and SRTP in this process: on a machine busy with browsers and other suites it
// can be slow to start. How fast it is belongs to `bench:live`, not here.
async function until(check: () => boolean, ms = 40_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A broadcaster publishing to `sfu`, connected. ICE checks that all time out on a machine at full
 * load leave a connection failed, which is not what these tests are about: a second broadcaster
 * then tries once more, and the error names the state if that one fails too.
 */
async function publish(sfu: StreamForwarder, layers?: string[]): Promise<NodeBroadcaster> {
  for (let attempt = 1; ; attempt++) {
    const caster = nodeBroadcaster(stun.url, layers);
    open.push(caster);
    await caster.accept(await sfu.publish(await caster.offer()));
    if (await connectedWithin(caster, 20_000)) return caster;
    if (attempt === 2) throw new Error(`the broadcaster did not connect to the SFU (${caster.state})`);
    await caster.close();
  }
}

async function watch(sfu: StreamForwarder, id: string): Promise<NodeViewer> {
  const viewer = nodeViewer(stun.url);
  open.push(viewer);
  await sfu.answerViewer(id, await viewer.answer(await sfu.addViewer(id)));
  await viewer.connected;
  return viewer;
}

describe('StreamForwarder', { timeout: 120_000 }, () => {
  it('forwards one broadcaster’s video to every viewer, and audio tracks reach them', async () => {
    const sfu = new StreamForwarder({ stunUrl: stun.url });
    open.push(sfu);
    const caster = await publish(sfu);
    const stop = caster.send(1_000_000);
    const viewers = [await watch(sfu, 'a'), await watch(sfu, 'b')];
    await until(() => viewers.every((v) => v.received > 50));
    await Promise.all(viewers.map((v) => v.audioTrack));
    stop();
    expect(sfu.viewerCount).toBe(2);
    // The sequence numbers carried in the payload arrive in order, from the broadcaster's stream.
    for (const v of viewers) expect(v.lastSeq).toBeGreaterThan(v.firstSeq);
  });

  it('relays a late joiner’s keyframe ask to the broadcaster, at most once per interval', async () => {
    const sfu = new StreamForwarder({ stunUrl: stun.url, keyframeIntervalMs: 60_000 });
    open.push(sfu);
    const caster = await publish(sfu);
    const stop = caster.send(300_000);
    // The broadcaster's media has reached the SFU before the late joiner comes: their ask has a stream to go to.
    await until(() => sfu.activeLayers().length > 0);
    await watch(sfu, 'late');
    await until(() => caster.keyframeAsks >= 1);
    // Within the interval further asks are swallowed.
    expect(sfu.askKeyframe()).toBe(false);
    await watch(sfu, 'later');
    await new Promise((r) => setTimeout(r, 300));
    stop();
    expect(caster.keyframeAsks).toBe(1);
  });

  it('a viewer who leaves stops receiving, and close leaves no peer connection open', async () => {
    const sfu = new StreamForwarder({ stunUrl: stun.url });
    const caster = await publish(sfu);
    const stop = caster.send(300_000);
    const v = await watch(sfu, 'x');
    await until(() => v.received > 10);
    sfu.removeViewer('x');
    expect(sfu.viewerCount).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    const after = v.received;
    await new Promise((r) => setTimeout(r, 300));
    expect(v.received).toBe(after);
    await sfu.close();
    stop();
    expect(sfu.openPeers).toBe(0);
    await expect(sfu.addViewer('y')).rejects.toThrow();
  });
});

describe('quality adaptation', () => {
  it('a viewer on a lossy link drops to a lower simulcast layer at a keyframe; a good viewer keeps the best', async () => {
    // The constrained viewer loses a quarter of their video packets in the SFU's send path.
    let n = 0;
    const sfu = new StreamForwarder({ stunUrl: stun.url, linkFilter: (id) => id !== 'lossy' || n++ % 4 !== 0 });
    open.push(sfu);
    const caster = await publish(sfu, ['h', 'l']);
    // Small packets: two a tick on the high layer, one on the low, so the layers differ in rate at little CPU.
    const stop = caster.send(1_200_000, 500);
    const good = await watch(sfu, 'good');
    const lossy = await watch(sfu, 'lossy');
    await until(() => sfu.activeLayers().length === 2 && good.received > 100);
    expect(sfu.activeLayers().map((l) => l.rid)).toEqual(['h', 'l']);
    // Receiver reports come every 0.5–1.5 s: two bad ones move the lossy viewer down.
    await until(() => sfu.viewerLayer('lossy')?.rid === 'l', 15_000);
    // High-layer packets forwarded just before the switch may still be on their way.
    await new Promise((r) => setTimeout(r, 300));
    const before = { ...lossy, layers: [...lossy.layers] };
    await new Promise((r) => setTimeout(r, 1000));
    stop();
    expect(sfu.viewerLayer('lossy')?.switches).toBe(1);
    // After the switch the lossy viewer gets the low layer only.
    expect((lossy.layers[1] ?? 0) - (before.layers[1] ?? 0)).toBeGreaterThan(0);
    expect(lossy.layers[0]).toBe(before.layers[0]);
    // The good viewer's link is loopback in this process: on a machine busy enough to starve it, it
    // loses packets for real and says so, and then a step down is right. Without such reports it
    // must keep the best layer.
    const goodLayer = sfu.viewerLayer('good')!;
    if (goodLayer.overloadedReports < BAD_REPORTS_TO_STEP_DOWN) {
      expect(goodLayer).toMatchObject({ rid: 'h', switches: 0 });
      expect(good.layers[1] ?? 0).toBe(0);
    } else {
      console.warn(`the good viewer's own reports said its link was overloaded ${goodLayer.overloadedReports} times`);
    }
  });
});
