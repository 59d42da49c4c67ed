import { MODEL_SIZE, type FromGuardWorker, type ToGuardWorker } from './guardMessages';
import { judge, watching, type GuardState } from './verdict';

/** A few looks a second: fast enough to blur within a second, light enough for a phone. */
const LOOK_EVERY_MS = 200;

export type NudityGuardStatus = 'off' | 'loading' | 'watching' | 'shielded' | 'revealed' | 'unavailable';

export type NudityGuardStats = { classificationsPerS: number; looks: number; modelMs: number; backend: string | null };

/**
 * Watches the partner's <video> for nudity, on this device only: a few times a second a 224×224
 * copy of the current frame goes to the classifier worker (while it is free); two explicit frames
 * in a row shield the video until the user reveals it. The worker starts at once, so the model is
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

  constructor(
    private readonly video: () => HTMLVideoElement | null,
    private readonly onStatus: (status: NudityGuardStatus) => void,
  ) {
    this.worker = new Worker(new URL('./nudityWorker.ts', import.meta.url), { type: 'module', name: 'parley-nudity-guard' });
    this.worker.onmessage = (e: MessageEvent<FromGuardWorker>) => this.fromWorker(e.data);
    this.worker.onerror = (e) => {
      console.error('[video] nudity guard worker failed:', e.message);
      this.show('unavailable');
    };
    this.toWorker({ type: 'load' });
    this.timer = setInterval(() => this.look(), LOOK_EVERY_MS);
  }

  /** A new partner (or none): judged afresh on their own frames. */
  newPartner() {
    this.verdict = watching;
    if (this.status === 'shielded' || this.status === 'revealed') this.show('watching');
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
    this.worker.terminate();
  }

  private show(status: NudityGuardStatus) {
    this.status = status;
    this.onStatus(status);
  }

  private toWorker(m: ToGuardWorker, transfer: Transferable[] = []) {
    this.worker.postMessage(m, transfer);
  }

  private look() {
    const v = this.video();
    if (this.busy || !this.ready || this.status !== 'watching' || !v || v.readyState < 2 || v.videoWidth === 0) return;
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
      if (this.status !== 'watching') return;
      this.verdict = judge(this.verdict, m.scores);
      if (this.verdict.shielded) this.show('shielded');
      // A slow model run is followed at once by the next, not by the rest of a timer tick.
      else if (performance.now() - this.lastLookAt >= LOOK_EVERY_MS) this.look();
    } else {
      this.busy = false;
      console.error('[video] nudity guard:', m.message);
      this.show('unavailable');
    }
  }
}
