import { createPersonSegmenter, type PersonSegmenter } from './segmentation';

export type BackgroundVideoFilter = 'none' | 'blur' | 'grayscale';

/** Downscale factor of the blurred background: blurring a quarter-size frame is ~16x cheaper and looks the same. */
const BLUR_SCALE = 4;
const BLUR_PX = 3;

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

/**
 * The camera as the partner receives it: camera -> <video> -> canvas (grayscale, or the person
 * sharp over a blurred background) -> canvas.captureStream(). Frames are drawn on each new camera
 * frame (requestVideoFrameCallback), so the output runs at the camera's frame rate; the
 * segmentation model runs beside it on the newest frame and the latest mask is reused until the
 * next is ready. Until the first mask exists the whole picture is blurred, so the background never
 * shows by accident.
 */
export class BackgroundFilterPipeline {
  private filter: BackgroundVideoFilter = 'none';
  private readonly video: HTMLVideoElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly small: HTMLCanvasElement;
  private readonly smallCtx: CanvasRenderingContext2D;
  private readonly person: HTMLCanvasElement;
  private readonly personCtx: CanvasRenderingContext2D;
  private readonly processed: MediaStreamTrack;
  private frameHandle: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private segmenter: PersonSegmenter | null = null;
  private segmenterLoading: Promise<void> | null = null;
  private segmenting = false;
  private mask: CanvasImageSource | null = null;
  private stopped = false;
  private frameTimes: number[] = [];
  private maskTimes: number[] = [];
  private rendered = 0;

  constructor(
    private source: MediaStreamTrack,
    private readonly opts: { onNotice?: (n: FilterNotice) => void; segmenterFactory?: SegmenterFactory } = {},
  ) {
    this.video = document.createElement('video');
    this.video.muted = true;
    this.video.playsInline = true;
    this.video.setAttribute('aria-hidden', 'true');
    // Kept in the document (invisible) so the browser keeps decoding frames for it.
    this.video.style.cssText = 'position:fixed;left:-2px;top:-2px;width:1px;height:1px;opacity:0;pointer-events:none';
    document.body.appendChild(this.video);
    this.canvas = document.createElement('canvas');
    this.small = document.createElement('canvas');
    this.person = document.createElement('canvas');
    this.ctx = this.canvas.getContext('2d', { alpha: false })!;
    this.smallCtx = this.small.getContext('2d', { alpha: false })!;
    this.personCtx = this.person.getContext('2d')!;
    this.sizeTo(source);
    this.processed = this.canvas.captureStream().getVideoTracks()[0]!;
    this.setSource(source);
  }

  /** The track to send now: the raw camera for `none`, the canvas otherwise. */
  get outputTrack(): MediaStreamTrack {
    return usesCanvas(this.filter) ? this.processed : this.source;
  }

  get currentFilter(): BackgroundVideoFilter {
    return this.filter;
  }

  /** Changes the filter; resolves with the track to send (replaceTrack it if it changed). */
  setFilter(filter: BackgroundVideoFilter): MediaStreamTrack {
    this.filter = filter;
    if (filter === 'blur') void this.loadSegmenter();
    if (usesCanvas(filter)) this.startLoop();
    else this.stopLoop();
    return this.outputTrack;
  }

  /** A new camera (device switch): the canvas keeps its track, so only `none` needs a replaceTrack. */
  setSource(track: MediaStreamTrack): MediaStreamTrack {
    this.source = track;
    this.sizeTo(track);
    this.video.srcObject = new MediaStream([track]);
    void this.video.play().catch(() => undefined);
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
    this.stopLoop();
    this.processed.stop();
    this.video.srcObject = null;
    this.video.remove();
    void this.segmenter?.close().catch(() => undefined);
    this.segmenter = null;
  }

  private sizeTo(track: MediaStreamTrack) {
    const { width = 640, height = 480 } = track.getSettings();
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
      this.small.width = Math.max(1, Math.round(width / BLUR_SCALE));
      this.small.height = Math.max(1, Math.round(height / BLUR_SCALE));
    }
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
          description: 'The person-detection model could not start in this browser, so your whole picture is blurred. Choose None or Grayscale to be seen clearly.',
        });
      });
    return this.segmenterLoading;
  }

  private startLoop() {
    if (this.frameHandle !== null || this.timer !== null || this.stopped) return;
    const next = () => {
      if (this.stopped || !usesCanvas(this.filter)) return;
      if ('requestVideoFrameCallback' in this.video) {
        this.frameHandle = this.video.requestVideoFrameCallback(() => {
          this.frameHandle = null;
          this.draw();
          next();
        });
      } else {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.draw();
          next();
        }, 1000 / 30);
      }
    };
    next();
  }

  private stopLoop() {
    if (this.frameHandle !== null) this.video.cancelVideoFrameCallback(this.frameHandle);
    if (this.timer !== null) clearTimeout(this.timer);
    this.frameHandle = null;
    this.timer = null;
  }

  private draw() {
    const { ctx, canvas, video } = this;
    if (video.readyState < 2) return;
    if (video.videoWidth && (canvas.width !== video.videoWidth || canvas.height !== video.videoHeight)) {
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      this.small.width = Math.max(1, Math.round(video.videoWidth / BLUR_SCALE));
      this.small.height = Math.max(1, Math.round(video.videoHeight / BLUR_SCALE));
    }
    const { width: w, height: h } = canvas;
    if (this.filter === 'grayscale') {
      ctx.filter = 'grayscale(1)';
      ctx.drawImage(video, 0, 0, w, h);
      ctx.filter = 'none';
    } else if (this.filter === 'blur') {
      this.drawBlurred(w, h);
      this.segmentLatest();
    }
    this.rendered++;
    const now = performance.now();
    this.frameTimes.push(now);
    while (this.frameTimes.length && now - this.frameTimes[0]! > 1000) this.frameTimes.shift();
  }

  private drawBlurred(w: number, h: number) {
    const { ctx, small, smallCtx, video, person, personCtx } = this;
    smallCtx.filter = `blur(${BLUR_PX}px)`;
    smallCtx.drawImage(video, 0, 0, small.width, small.height);
    smallCtx.filter = 'none';
    ctx.drawImage(small, 0, 0, w, h);
    if (!this.mask) return;
    // The person layer: the frame kept only where the mask says "person", drawn over the blur.
    if (person.width !== w || person.height !== h) {
      person.width = w;
      person.height = h;
    }
    personCtx.globalCompositeOperation = 'copy';
    personCtx.drawImage(this.mask, 0, 0, w, h);
    personCtx.globalCompositeOperation = 'source-in';
    personCtx.drawImage(video, 0, 0, w, h);
    ctx.drawImage(person, 0, 0);
  }

  private segmentLatest() {
    const segmenter = this.segmenter;
    if (!segmenter || this.segmenting) return;
    this.segmenting = true;
    segmenter
      .segment(this.video)
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
