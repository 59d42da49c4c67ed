import { createPersonSegmenter, type PersonSegmenter } from './segmentation';

export type BackgroundVideoFilter = 'none' | 'blur' | 'grayscale';

/** Downscale factor of the blurred background: blurring a quarter-size frame is ~16x cheaper and looks the same. */
const BLUR_SCALE = 4;
const BLUR_PX = 3;
/** At most this many person masks a second: the model runs on the main thread, the frames must keep flowing. */
const MAX_MASKS_PER_S = 12;

export type FilterStats = {
  /** Output frames drawn in the last second (the camera's rate when the pipeline keeps up). */
  fps: number;
  /** Person masks computed in the last second (the model may run slower than the camera). */
  maskFps: number;
  framesRendered: number;
};

export type FilterNotice = { title: string; description: string };

/** `none` sends the camera as it is; any other filter sends the processed canvas. */
export function usesCanvas(filter: BackgroundVideoFilter): boolean {
  return filter !== 'none';
}

type SegmenterFactory = () => Promise<PersonSegmenter>;

// Chromium's insertable streams (not yet in TypeScript's DOM library).
type TrackProcessorCtor = new (init: { track: MediaStreamTrack; maxBufferSize?: number }) => { readable: ReadableStream<VideoFrame> };
const TrackProcessor = (globalThis as { MediaStreamTrackProcessor?: TrackProcessorCtor }).MediaStreamTrackProcessor;

/**
 * The camera as the partner receives it: camera frames -> canvas (grayscale, or the person sharp
 * over a blurred background) -> canvas.captureStream(). Frames come straight from the camera track
 * (MediaStreamTrackProcessor where the browser has it, else a <video> with
 * requestVideoFrameCallback), so the output runs at the camera's frame rate; the segmentation
 * model runs beside it on the newest frame and the latest mask is reused until the next is ready.
 * Until the first mask exists the whole picture is blurred, so the background never shows by
 * accident.
 */
export class BackgroundFilterPipeline {
  private filter: BackgroundVideoFilter = 'none';
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly small: HTMLCanvasElement;
  private readonly smallCtx: CanvasRenderingContext2D;
  private readonly person: HTMLCanvasElement;
  private readonly personCtx: CanvasRenderingContext2D;
  private readonly processed: MediaStreamTrack;
  private stopFrames: (() => void) | null = null;
  private segmenter: PersonSegmenter | null = null;
  private segmenterLoading: Promise<void> | null = null;
  private segmenting = false;
  private lastMaskAt = 0;
  private mask: CanvasImageSource | null = null;
  private stopped = false;
  private frameTimes: number[] = [];
  private maskTimes: number[] = [];
  private rendered = 0;

  constructor(
    private source: MediaStreamTrack,
    private readonly opts: { onNotice?: (n: FilterNotice) => void; segmenterFactory?: SegmenterFactory } = {},
  ) {
    this.canvas = document.createElement('canvas');
    this.small = document.createElement('canvas');
    this.person = document.createElement('canvas');
    this.ctx = this.canvas.getContext('2d', { alpha: false })!;
    this.smallCtx = this.small.getContext('2d', { alpha: false })!;
    this.personCtx = this.person.getContext('2d')!;
    const { width = 640, height = 480 } = source.getSettings();
    this.resize(width, height);
    this.processed = this.canvas.captureStream().getVideoTracks()[0]!;
    // A face on camera: under CPU pressure the encoder should lower resolution, not the frame rate.
    this.processed.contentHint = 'motion';
  }

  /** The track to send now: the raw camera for `none`, the canvas otherwise. */
  get outputTrack(): MediaStreamTrack {
    return usesCanvas(this.filter) ? this.processed : this.source;
  }

  get currentFilter(): BackgroundVideoFilter {
    return this.filter;
  }

  /** Changes the filter; returns the track to send (replaceTrack it if it changed). */
  setFilter(filter: BackgroundVideoFilter): MediaStreamTrack {
    this.filter = filter;
    if (filter === 'blur') void this.loadSegmenter();
    if (usesCanvas(filter)) this.startFrames();
    else this.stopFrameSource();
    return this.outputTrack;
  }

  /** A new camera (device switch): the canvas keeps its track, so only `none` needs a replaceTrack. */
  setSource(track: MediaStreamTrack): MediaStreamTrack {
    this.source = track;
    if (this.stopFrames) {
      this.stopFrameSource();
      this.startFrames();
    }
    return this.outputTrack;
  }

  stats(): FilterStats {
    const now = performance.now();
    const recent = (times: number[]) => times.filter((t) => now - t <= 1000).length;
    return { fps: recent(this.frameTimes), maskFps: recent(this.maskTimes), framesRendered: this.rendered };
  }

  /** Stops drawing and the canvas track; the camera track belongs to the caller. */
  stop(): void {
    this.stopped = true;
    this.stopFrameSource();
    this.processed.stop();
    void this.segmenter?.close().catch(() => undefined);
    this.segmenter = null;
  }

  private resize(width: number, height: number) {
    if (this.canvas.width === width && this.canvas.height === height) return;
    for (const c of [this.canvas, this.person]) {
      c.width = width;
      c.height = height;
    }
    this.small.width = Math.max(1, Math.round(width / BLUR_SCALE));
    this.small.height = Math.max(1, Math.round(height / BLUR_SCALE));
  }

  private loadSegmenter(): Promise<void> {
    this.segmenterLoading ??= (this.opts.segmenterFactory ?? createPersonSegmenter)()
      .then((s) => {
        if (this.stopped) void s.close();
        else this.segmenter = s;
      })
      .catch((err: unknown) => {
        console.error('[video] person segmentation unavailable:', err);
        this.opts.onNotice?.({
          title: 'Background blur is limited',
          description:
            'The person-detection model could not start in this browser, so your whole picture is blurred. Choose None or Grayscale to be seen clearly.',
        });
      });
    return this.segmenterLoading;
  }

  private stopFrameSource() {
    this.stopFrames?.();
    this.stopFrames = null;
  }

  /** Calls draw() for every camera frame until stopFrameSource(). */
  private startFrames() {
    if (this.stopFrames || this.stopped) return;
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
          if (active) {
            this.resize(videoFrame.displayWidth, videoFrame.displayHeight);
            this.draw(videoFrame);
          }
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
      if (video.readyState >= 2 && video.videoWidth) {
        this.resize(video.videoWidth, video.videoHeight);
        this.draw(video);
      }
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

  /** Draws one camera frame; `frame` is only valid during this call (a VideoFrame is closed after). */
  private draw(frame: CanvasImageSource) {
    const { ctx, canvas } = this;
    const { width: w, height: h } = canvas;
    if (this.filter === 'grayscale') {
      ctx.filter = 'grayscale(1)';
      ctx.drawImage(frame, 0, 0, w, h);
      ctx.filter = 'none';
    } else if (this.filter === 'blur') {
      this.drawBlurred(frame, w, h);
      this.segmentLatest(frame);
    } else {
      return;
    }
    this.rendered++;
    const now = performance.now();
    this.frameTimes.push(now);
    while (this.frameTimes.length && now - this.frameTimes[0]! > 1000) this.frameTimes.shift();
  }

  private drawBlurred(frame: CanvasImageSource, w: number, h: number) {
    const { ctx, small, smallCtx, person, personCtx } = this;
    smallCtx.filter = `blur(${BLUR_PX}px)`;
    smallCtx.drawImage(frame, 0, 0, small.width, small.height);
    smallCtx.filter = 'none';
    ctx.drawImage(small, 0, 0, w, h);
    if (!this.mask) return;
    // The person layer: the frame kept only where the mask says "person", drawn over the blur.
    personCtx.globalCompositeOperation = 'copy';
    personCtx.drawImage(this.mask, 0, 0, w, h);
    personCtx.globalCompositeOperation = 'source-in';
    personCtx.drawImage(frame, 0, 0, w, h);
    ctx.drawImage(person, 0, 0);
  }

  /** Starts the model on this frame when it is free; segment() copies the frame before it yields. */
  private segmentLatest(frame: CanvasImageSource) {
    const segmenter = this.segmenter;
    const now = performance.now();
    if (!segmenter || this.segmenting || now - this.lastMaskAt < 1000 / MAX_MASKS_PER_S) return;
    this.segmenting = true;
    this.lastMaskAt = now;
    segmenter
      .segment(frame)
      .then((mask) => {
        if (mask) {
          this.mask = mask;
          const now = performance.now();
          this.maskTimes.push(now);
          while (this.maskTimes.length && now - this.maskTimes[0]! > 1000) this.maskTimes.shift();
        }
      })
      .catch((err: unknown) => console.error('[video] segmentation failed:', err))
      .finally(() => {
        this.segmenting = false;
      });
  }
}
