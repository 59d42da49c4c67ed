import { createPersonSegmenter, MAX_MASKS_PER_S, MODEL_INPUT, type PersonSegmenter } from './segmentation';
import { BLUR_SCALE, drawFiltered, type FilterCanvases } from './filterDraw';
import type { FilterPath, FromWorker, ToWorker } from './filterWorker';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

export type BackgroundVideoFilter = 'none' | 'blur' | 'grayscale';

export type FilterStats = {
  /** Output frames drawn in the last second (the camera's rate when the pipeline keeps up). */
  fps: number;
  /** Person masks computed in the last second (the model may run slower than the camera). */
  maskFps: number;
  framesRendered: number;
  /** Mean time to draw one frame and hand it on, in the last second (ms); measured where frames are drawn. */
  drawMs: number;
  /** Mean time of one run of the segmentation model in its worker, over the latest runs (ms). */
  maskMs: number;
  /** Where the frames were last filtered: in the filter's worker (on the GPU, in the camera's planes, on a canvas) or on the page. */
  path: FilterPath | 'page';
};

export type FilterNotice = { title: string; description: string };

/** `none` sends the camera as it is; any other filter sends the processed canvas. */
export function usesCanvas(filter: BackgroundVideoFilter): boolean {
  return filter !== 'none';
}

type SegmenterFactory = () => Promise<PersonSegmenter>;

// Chromium's insertable streams (not yet in TypeScript's DOM library).
type TrackProcessorCtor = new (init: { track: MediaStreamTrack; maxBufferSize?: number }) => { readable: ReadableStream<VideoFrame> };
type TrackGeneratorCtor = new (init: { kind: 'video' }) => MediaStreamTrack & { writable: WritableStream<VideoFrame> };
const TrackProcessor = (globalThis as { MediaStreamTrackProcessor?: TrackProcessorCtor }).MediaStreamTrackProcessor;
const TrackGenerator = (globalThis as { MediaStreamTrackGenerator?: TrackGeneratorCtor }).MediaStreamTrackGenerator;

/**
 * Whether frames can be filtered in a worker: camera frames in (track processor), filtered frames
 * out (track generator), drawn on an OffscreenCanvas. Chromium has all three.
 */
export const canFilterInWorker = (): boolean =>
  !!TrackProcessor && !!TrackGenerator && typeof OffscreenCanvas !== 'undefined' && typeof Worker !== 'undefined';

/**
 * `localStorage['parley.filterPath']`: `page` keeps the frames on the page; `gpu`, `planes` and
 * `canvas` have the worker filter every frame that way, whatever the device would choose
 * (filterWorker.ts); bench/video.ts and the end-to-end tests compare the paths.
 */
function filterPathAsked(): string | null {
  try {
    return window.localStorage.getItem('parley.filterPath');
  } catch {
    return null;
  }
}

/**
 * The camera as the partner receives it: camera frames -> canvas (grayscale, or the person sharp
 * over a blurred background) -> the outgoing track. Frames come straight from the camera track, so
 * the output runs at the camera's frame rate, and the segmentation model runs beside it on the
 * newest frame, the latest mask reused until the next is ready. Until the first mask exists the
 * whole picture is blurred, so the background never shows by accident.
 *
 * The model runs in a worker of its own (segmentation.ts), never on the page's thread. Where the
 * browser allows (canFilterInWorker: Chromium), every frame is drawn in a second worker and written
 * to a track generator, and that worker hands the model its frames itself. Elsewhere the page draws
 * them (MediaStreamTrackProcessor, else a <video> with requestVideoFrameCallback) and sends
 * canvas.captureStream(), which, tied to the page's rendering, keeps only one of the frames drawn
 * between two renderings.
 */
export class BackgroundFilterPipeline {
  private filter: BackgroundVideoFilter = 'none';
  private readonly processed: MediaStreamTrack;
  /** The worker path: the worker draws, and sends the model its frames. */
  private readonly worker: Worker | null = null;
  private workerReading = false;
  private workerStats: Omit<FilterStats, 'framesRendered'> & { rendered: number } = {
    fps: 0,
    rendered: 0,
    drawMs: 0,
    maskFps: 0,
    maskMs: 0,
    path: 'planes',
  };
  private drawTimes: number[] = [];
  private maskRunTimes: number[] = [];
  /** The page path's canvases. */
  private canvases: FilterCanvases | null = null;
  private stopFrames: (() => void) | null = null;
  private segmenter: PersonSegmenter | null = null;
  private segmenterLoading: Promise<void> | null = null;
  private segmenting = false;
  private lastMaskAt = 0;
  private mask: ImageBitmap | null = null;
  private stopped = false;
  private frameTimes: number[] = [];
  private maskTimes: number[] = [];
  private rendered = 0;

  constructor(
    private source: MediaStreamTrack,
    private readonly opts: { onNotice?: (n: FilterNotice) => void; segmenterFactory?: SegmenterFactory; inWorker?: boolean } = {},
  ) {
    const path = filterPathAsked();
    if ((opts.inWorker ?? path !== 'page') && canFilterInWorker()) {
      const generator = new TrackGenerator!({ kind: 'video' });
      this.processed = generator;
      this.worker = new Worker(new URL('./filterWorker.ts', import.meta.url), { type: 'module', name: 'parley-background-filter' });
      this.worker.onmessage = (e: MessageEvent<FromWorker>) => this.fromWorker(e.data);
      this.worker.onerror = (e) => console.error('[video] background filter worker failed:', e.message);
      this.toWorker({ type: 'output', writable: generator.writable }, [generator.writable as unknown as Transferable]);
      if (path === 'gpu' || path === 'planes' || path === 'canvas') this.toWorker({ type: 'path', path });
    } else {
      const { width = 640, height = 480 } = source.getSettings();
      this.canvases = pageCanvases(width, height);
      this.processed = (this.canvases.out as HTMLCanvasElement).captureStream().getVideoTracks()[0]!;
    }
    // A face on camera: under CPU pressure the encoder should lower resolution, not the frame rate.
    this.processed.contentHint = 'motion';
  }

  /** The track to send now: the raw camera for `none`, the filtered frames otherwise. */
  get outputTrack(): MediaStreamTrack {
    return usesCanvas(this.filter) ? this.processed : this.source;
  }

  get currentFilter(): BackgroundVideoFilter {
    return this.filter;
  }

  /** Changes the filter; returns the track to send (replaceTrack it if it changed). */
  setFilter(filter: BackgroundVideoFilter): MediaStreamTrack {
    this.filter = filter;
    if (filter !== 'none') this.toWorker({ type: 'filter', filter });
    if (filter === 'blur') void this.loadSegmenter();
    if (usesCanvas(filter)) this.startFrames();
    else this.stopFrameSource();
    return this.outputTrack;
  }

  /** A new camera (device switch): the filtered track stays the same, so only `none` needs a replaceTrack. */
  setSource(track: MediaStreamTrack): MediaStreamTrack {
    this.source = track;
    if (this.stopFrames || this.workerReading) {
      this.stopFrameSource();
      this.startFrames();
    }
    return this.outputTrack;
  }

  stats(): FilterStats {
    const now = performance.now();
    const recent = (times: number[]) => times.filter((t) => now - t <= 1000).length;
    const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : 0);
    if (this.worker) {
      const { rendered, ...rest } = this.workerStats;
      return { ...rest, framesRendered: rendered };
    }
    return {
      fps: recent(this.frameTimes),
      maskFps: recent(this.maskTimes),
      framesRendered: this.rendered,
      drawMs: mean(this.drawTimes),
      maskMs: mean(this.maskRunTimes),
      path: 'page',
    };
  }

  /** Stops drawing and the filtered track; the camera track belongs to the caller. */
  stop(): void {
    this.stopped = true;
    this.stopFrameSource();
    this.toWorker({ type: 'stop' });
    this.worker?.terminate();
    this.processed.stop();
    this.segmenter?.close();
    this.segmenter = null;
    this.mask?.close();
    this.mask = null;
  }

  private toWorker(message: ToWorker, transfer: Transferable[] = []) {
    this.worker?.postMessage(message, transfer);
  }

  private fromWorker(m: FromWorker) {
    if (m.type === 'stats') {
      const { type: _, ...stats } = m;
      this.workerStats = stats;
    } else if (m.type === 'error') console.error('[video] background filter:', m.message);
  }

  /** The worker path: the filter worker gets a channel of its own to the model. */
  private connectWorker(segmenter: PersonSegmenter) {
    if (!this.worker) return;
    const port = segmenter.connect();
    this.toWorker({ type: 'segmenter', port, ...MODEL_INPUT, minIntervalMs: 1000 / MAX_MASKS_PER_S }, [port]);
  }

  private timeMask(ms: number) {
    this.maskRunTimes.push(ms);
    if (this.maskRunTimes.length > 12) this.maskRunTimes.shift();
  }

  private countMask() {
    const now = performance.now();
    this.maskTimes.push(now);
    while (this.maskTimes.length && now - this.maskTimes[0]! > 1000) this.maskTimes.shift();
  }

  private loadSegmenter(): Promise<void> {
    this.segmenterLoading ??= (this.opts.segmenterFactory ?? createPersonSegmenter)()
      .then((s) => {
        if (this.stopped) s.close();
        else {
          this.segmenter = s;
          this.connectWorker(s);
        }
      })
      .catch((err: unknown) => {
        console.error('[video] person segmentation unavailable:', err);
        this.opts.onNotice?.({
          title: i18n._(msg`Background blur is limited`),
          description: i18n._(
            msg`The person-detection model could not start in this browser, so your whole picture is blurred. Choose None or Grayscale to be seen clearly.`,
          ),
        });
      });
    return this.segmenterLoading;
  }

  private stopFrameSource() {
    if (this.workerReading) {
      this.workerReading = false;
      this.toWorker({ type: 'pause' });
    }
    this.stopFrames?.();
    this.stopFrames = null;
  }

  /** Starts drawing every camera frame until stopFrameSource(). */
  private startFrames() {
    if (this.stopped) return;
    if (this.worker) {
      if (this.workerReading) return;
      const { readable } = new TrackProcessor!({ track: this.source, maxBufferSize: 1 });
      this.toWorker({ type: 'source', readable }, [readable as unknown as Transferable]);
      this.workerReading = true;
      return;
    }
    if (this.stopFrames) return;
    this.stopFrames = TrackProcessor ? this.framesFromProcessor(TrackProcessor) : this.framesFromVideo();
  }

  private framesFromProcessor(Processor: TrackProcessorCtor): () => void {
    const reader = new Processor({ track: this.source, maxBufferSize: 1 }).readable.getReader();
    let active = true;
    void (async () => {
      while (active) {
        const { value: videoFrame, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
        if (done || !videoFrame) break;
        try {
          if (active) this.draw(videoFrame, videoFrame.displayWidth, videoFrame.displayHeight);
        } finally {
          videoFrame.close();
        }
      }
    })();
    return () => {
      active = false;
      void reader.cancel().catch(() => undefined);
    };
  }

  private framesFromVideo(): () => void {
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    video.srcObject = new MediaStream([this.source]);
    void video.play().catch(() => undefined);
    let handle: number | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let active = true;
    const onFrame = () => {
      if (!active) return;
      if (video.readyState >= 2 && video.videoWidth) this.draw(video, video.videoWidth, video.videoHeight);
      next();
    };
    const next = () => {
      if ('requestVideoFrameCallback' in video) handle = video.requestVideoFrameCallback(onFrame);
      else timer = setTimeout(onFrame, 1000 / 30);
    };
    next();
    return () => {
      active = false;
      if (handle !== null) video.cancelVideoFrameCallback(handle);
      if (timer !== null) clearTimeout(timer);
      video.srcObject = null;
    };
  }

  /** The page path: draws one camera frame; `frame` is only valid during this call (a VideoFrame is closed after). */
  private draw(frame: CanvasImageSource, width: number, height: number) {
    if (this.filter === 'none' || !this.canvases) return;
    const started = performance.now();
    resizePageCanvases(this.canvases, width, height);
    drawFiltered(this.canvases, frame, this.filter, this.filter === 'blur' ? this.mask : null);
    this.drawTimes.push(performance.now() - started);
    if (this.drawTimes.length > 30) this.drawTimes.shift();
    if (this.filter === 'blur') this.segmentLatest(frame);
    this.rendered++;
    const now = performance.now();
    this.frameTimes.push(now);
    while (this.frameTimes.length && now - this.frameTimes[0]! > 1000) this.frameTimes.shift();
  }

  /** The page path: starts the model on this frame when it is free; segment() copies the frame before it yields. */
  private segmentLatest(frame: CanvasImageSource) {
    const segmenter = this.segmenter;
    const now = performance.now();
    if (!segmenter || this.segmenting || now - this.lastMaskAt < 1000 / MAX_MASKS_PER_S) return;
    this.segmenting = true;
    this.lastMaskAt = now;
    segmenter
      .segment(frame)
      .then((r) => {
        if (!r) return;
        if (this.stopped) return r.mask.close();
        this.timeMask(r.ms);
        this.mask?.close();
        this.mask = r.mask;
        this.countMask();
      })
      .catch((err: unknown) => console.error('[video] segmentation failed:', err))
      .finally(() => {
        this.segmenting = false;
      });
  }
}

function pageCanvases(width: number, height: number): FilterCanvases {
  const out = document.createElement('canvas');
  const small = document.createElement('canvas');
  const person = document.createElement('canvas');
  const c: FilterCanvases = {
    out,
    small,
    person,
    ctx: out.getContext('2d', { alpha: false })!,
    smallCtx: small.getContext('2d', { alpha: false })!,
    personCtx: person.getContext('2d')!,
  };
  resizePageCanvases(c, width, height);
  return c;
}

function resizePageCanvases(c: FilterCanvases, width: number, height: number) {
  if (c.out.width === width && c.out.height === height) return;
  for (const canvas of [c.out, c.person]) {
    canvas.width = width;
    canvas.height = height;
  }
  c.small.width = Math.max(1, Math.round(width / BLUR_SCALE));
  c.small.height = Math.max(1, Math.round(height / BLUR_SCALE));
}
