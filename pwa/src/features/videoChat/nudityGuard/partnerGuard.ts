import { MODEL_SIZE, type FromGuardWorker, type ToGuardWorker } from '../../../lib/nudity/guardMessages';
import { judge, watching, type GuardState } from '../../../lib/nudity/verdict';

/** A few looks a second: fast enough to blur within a second, light enough for a phone. */
const LOOK_EVERY_MS = 200;

/**
 * `suspect`: one explicit frame, the video is blurred while the next frame is judged; `shielded`:
 * confirmed, blurred until the user reveals it.
 */
export type NudityGuardStatus = 'off' | 'loading' | 'watching' | 'suspect' | 'shielded' | 'revealed' | 'unavailable';

export type NudityGuardStats = { classificationsPerS: number; looks: number; modelMs: number; backend: string | null };

/**
 * Watches the partner's <video> for nudity, on this device only: a few times a second a 224×224
 * copy of the current frame goes to the classifier worker (while it is free); one explicit frame
 * blurs the video at once, and a second in a row keeps it blurred until the user reveals it. The worker starts at once, so the model is
 * loaded before a partner appears.
 */
export class PartnerNudityGuard {
  private status: NudityGuardStatus = 'loading';
  private verdict: GuardState = watching;
  private readonly worker: Worker;
  private ready = false;
  private busy = false;
  private lastLookAt = -Infinity;
  private lookTimes: number[] = [];
  private looks = 0;
  private modelMs = 0;
  private backend: string | null = null;
  private readonly timer: ReturnType<typeof setInterval>;
  /** The running chain of frame callbacks, and when it last saw a frame. */
  private chain = 0;
  private lastFrameAt = -Infinity;

  constructor(
    private readonly video: () => HTMLVideoElement | null,
    private readonly onStatus: (status: NudityGuardStatus) => void,
  ) {
    this.worker = new Worker(new URL('../../../lib/nudity/nudityWorker.ts', import.meta.url), {
      type: 'module',
      name: 'parley-nudity-guard',
    });
    this.worker.onmessage = (e: MessageEvent<FromGuardWorker>) => this.fromWorker(e.data);
    this.worker.onerror = (e) => {
      console.error('[video] nudity guard worker failed:', e.message);
      this.show('unavailable');
    };
    this.toWorker({ type: 'load' });
    // The timer finds a new partner's video; each new frame of it is a chance to look, so the
    // first frame is judged as soon as it is painted.
    this.timer = setInterval(() => this.watchFrames(), LOOK_EVERY_MS);
  }

  /** A new partner (or none): judged afresh on their own frames. */
  newPartner() {
    this.verdict = watching;
    if (this.status === 'suspect' || this.status === 'shielded' || this.status === 'revealed') this.show('watching');
  }

  /** "Show anyway": this partner's video stays visible, and is no longer looked at. */
  reveal() {
    if (this.status === 'shielded') this.show('revealed');
  }

  stats(): NudityGuardStats {
    const since = performance.now() - 1000;
    this.lookTimes = this.lookTimes.filter((t) => t >= since);
    return { classificationsPerS: this.lookTimes.length, looks: this.looks, modelMs: this.modelMs, backend: this.backend };
  }

  stop() {
    clearInterval(this.timer);
    this.chain++;
    this.worker.terminate();
  }

  private looking() {
    return this.status === 'watching' || this.status === 'suspect';
  }

  private show(status: NudityGuardStatus) {
    this.status = status;
    this.onStatus(status);
  }

  private toWorker(m: ToGuardWorker, transfer: Transferable[] = []) {
    this.worker.postMessage(m, transfer);
  }

  private watchFrames() {
    const v = this.video();
    // Frames the browser does not report (or none yet) still get looked at, on the timer.
    if (performance.now() - this.lastLookAt >= 2 * LOOK_EVERY_MS) this.look();
    if (!v || !('requestVideoFrameCallback' in v)) return;
    // A video without frames for a while (no partner, or a new stream) gets a fresh chain.
    if (performance.now() - this.lastFrameAt < 1000) return;
    const chain = ++this.chain;
    const onFrame = () => {
      if (chain !== this.chain) return;
      this.lastFrameAt = performance.now();
      if (this.lastFrameAt - this.lastLookAt >= LOOK_EVERY_MS) this.look();
      v.requestVideoFrameCallback(onFrame);
    };
    this.lastFrameAt = performance.now();
    v.requestVideoFrameCallback(onFrame);
  }

  private look() {
    const v = this.video();
    if (this.busy || !this.ready || !this.looking() || !v || v.readyState < 2 || v.videoWidth === 0) return;
    this.busy = true;
    this.lastLookAt = performance.now();
    createImageBitmap(v, { resizeWidth: MODEL_SIZE, resizeHeight: MODEL_SIZE, resizeQuality: 'low' }).then(
      (image) => this.toWorker({ type: 'frame', image }, [image]),
      () => (this.busy = false),
    );
  }

  private fromWorker(m: FromGuardWorker) {
    if (m.type === 'ready') {
      this.ready = true;
      this.backend = m.backend;
      if (this.status === 'loading') this.show('watching');
    } else if (m.type === 'scores') {
      this.busy = false;
      this.lookTimes.push(performance.now());
      this.looks++;
      this.modelMs = m.ms;
      if (!this.looking()) return;
      this.verdict = judge(this.verdict, m.scores);
      const next = this.verdict.shielded ? 'shielded' : this.verdict.explicitRun > 0 ? 'suspect' : 'watching';
      if (next !== this.status) this.show(next);
      // A slow model run is followed at once by the next, not by the rest of a timer tick.
      if (this.looking() && performance.now() - this.lastLookAt >= LOOK_EVERY_MS) this.look();
    } else {
      this.busy = false;
      console.error('[video] nudity guard:', m.message);
      this.show('unavailable');
    }
  }
}
