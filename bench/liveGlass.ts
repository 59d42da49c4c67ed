/**
 * The browser half of `npm run bench:live`: glass-to-glass delay and late join, through the real
 * SFU (api/src/live/sfu.ts) and real Chromium WebRTC. The broadcaster page draws its clock into
 * every canvas frame (44 black or white blocks: milliseconds since the epoch) and publishes the
 * canvas; a viewer page reads the blocks back from each frame as it is shown. Both pages run in
 * one browser, so they share a clock. Late join: a new viewer page asks to watch → first frame shown.
 */
import { chromium, type Page } from '@playwright/test';
import { chromiumArgs } from '../pwa/playwright.config.ts';
import { StreamForwarder } from '../api/src/live/sfu.ts';

const BITS = 44;
const BLOCK = 12;

/** Runs in the broadcaster page: a moving picture with the clock in its top row, published to the SFU. */
async function broadcasterScript(opts: { bits: number; block: number }) {
  const w = window as unknown as { publishOffer(sdp: string): Promise<string> };
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = 480;
  document.body.append(canvas);
  const g = canvas.getContext('2d')!;
  const draw = () => {
    const t = Math.round(performance.timeOrigin + performance.now());
    // Moving colour bands: the encoder has real work, as with a camera.
    for (let y = 0; y < 480; y += 40) {
      g.fillStyle = `hsl(${(t / 10 + y) % 360} 60% 50%)`;
      g.fillRect(0, y, 640, 40);
    }
    for (let i = 0; i < opts.bits; i++) {
      g.fillStyle = Math.floor(t / 2 ** (opts.bits - 1 - i)) % 2 ? '#fff' : '#000';
      g.fillRect(i * opts.block, 0, opts.block, opts.block * 2);
    }
    requestAnimationFrame(draw);
  };
  draw();
  const stream = canvas.captureStream(30);
  const pc = new RTCPeerConnection();
  pc.addTransceiver(stream.getVideoTracks()[0]!, { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((r) => {
    if (pc.iceGatheringState === 'complete') r();
    pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && r());
    setTimeout(r, 2000);
  });
  await pc.setRemoteDescription({ type: 'answer', sdp: await w.publishOffer(pc.localDescription!.sdp) });
}

/** Runs in a viewer page: watches, and reads each shown frame's clock; answers delays and the first frame's time. */
async function viewerScript(opts: { bits: number; block: number; seconds: number }) {
  const w = window as unknown as { watchOffer(): Promise<string>; watchAnswer(sdp: string): Promise<void> };
  const asked = performance.now();
  const pc = new RTCPeerConnection();
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  document.body.append(video);
  pc.addEventListener('track', (e) => {
    if (e.track.kind === 'video') video.srcObject = new MediaStream([e.track]);
  });
  await pc.setRemoteDescription({ type: 'offer', sdp: await w.watchOffer() });
  await pc.setLocalDescription(await pc.createAnswer());
  await new Promise<void>((r) => {
    if (pc.iceGatheringState === 'complete') r();
    pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && r());
    setTimeout(r, 2000);
  });
  await w.watchAnswer(pc.localDescription!.sdp);
  void video.play();
  const canvas = document.createElement('canvas');
  const g = canvas.getContext('2d', { willReadFrequently: true })!;
  const delays: number[] = [];
  let firstFrameMs = -1;
  let unreadable = 0;
  const until = performance.now() + opts.seconds * 1000 + 10_000;
  await new Promise<void>((done) => {
    const onFrame = (_now: number, meta: VideoFrameCallbackMetadata) => {
      const shown = performance.timeOrigin + meta.expectedDisplayTime;
      if (firstFrameMs < 0) firstFrameMs = meta.expectedDisplayTime - asked;
      // Scaled back to 640 px wide, where the clock's blocks were drawn (the encoder may have sent it smaller).
      if (video.videoWidth > 0) {
        canvas.width = 640;
        canvas.height = opts.block * 2;
        g.drawImage(video, 0, 0, 640, 480);
        const px = g.getImageData(0, 0, opts.bits * opts.block, opts.block * 2).data;
        let t = 0;
        for (let i = 0; i < opts.bits; i++) {
          const at = (opts.block * opts.bits * Math.floor(opts.block) + i * opts.block + Math.floor(opts.block / 2)) * 4;
          t = t * 2 + (px[at]! > 128 ? 1 : 0);
        }
        const delay = shown - t;
        if (delay >= 0 && delay < 10_000) delays.push(delay);
        else unreadable++;
      }
      if (delays.length > 0 && performance.now() > until - 10_000) return done();
      if (performance.now() > until) return done();
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  });
  pc.close();
  return { delays, firstFrameMs, unreadable };
}

export type GlassResult = { delays: number[]; unreadable: number; lateJoinMs: number[] };

/** One broadcaster page and `joins` viewer pages in turn; the first watches for `seconds`. */
export async function measureGlassToGlass(opts: {
  stunUrl: string;
  seconds: number;
  joins: number;
  /** Runs the browser's launch (its processes take the affinity this process has meanwhile). */
  launching?: <T>(launch: () => Promise<T>) => Promise<T>;
}): Promise<GlassResult> {
  const launch = () => chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
  const browser = await (opts.launching ? opts.launching(launch) : launch());
  const sfu = new StreamForwarder({ stunUrl: opts.stunUrl });
  // tsx names functions with an `__name` helper that the page does not have: give it one.
  const newPage = async () => {
    const page = await browser.newPage();
    await page.evaluate('window.__name = (f) => f');
    return page;
  };
  try {
    const caster: Page = await newPage();
    await caster.exposeFunction('publishOffer', async (sdp: string) => (await sfu.publish({ type: 'offer', sdp })).sdp);
    await caster.evaluate(broadcasterScript, { bits: BITS, block: BLOCK });
    const result: GlassResult = { delays: [], unreadable: 0, lateJoinMs: [] };
    for (let i = 0; i < opts.joins; i++) {
      const id = `glass${i}`;
      const page = await newPage();
      await page.exposeFunction('watchOffer', async () => (await sfu.addViewer(id)).sdp);
      await page.exposeFunction('watchAnswer', (sdp: string) => sfu.answerViewer(id, { type: 'answer', sdp }));
      const r = await page.evaluate(viewerScript, { bits: BITS, block: BLOCK, seconds: i === 0 ? opts.seconds : 0 });
      if (r.firstFrameMs >= 0) result.lateJoinMs.push(r.firstFrameMs);
      if (i === 0) Object.assign(result, { delays: r.delays, unreadable: r.unreadable });
      sfu.removeViewer(id);
      await page.close();
    }
    return result;
  } finally {
    await sfu.close();
    await browser.close();
  }
}
