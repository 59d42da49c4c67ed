/// <reference lib="webworker" />
/**
 * The background filter's frame loop, in a worker: every camera frame is filtered here (grayscale,
 * or the person sharp over a blurred background) and written to the outgoing track, whatever the
 * page is doing. Frames in YUV, as cameras give them, are filtered in their own planes
 * (planarFilter.ts); others are drawn on a canvas. The person-segmentation model runs on the page's
 * main thread (MediaPipe needs the document); it asks for a small copy of the newest frame when it
 * is free and hands the mask back.
 * A model run that takes 50 ms therefore delays no frame: on the main thread it held up both the
 * drawing and the canvas capture, and the partner received one frame in two.
 */
import { BLUR_SCALE, drawFiltered, type FilterCanvases, type FrameFilter } from './filterDraw';
import { PlanarFilter, type Mask } from './planarFilter';

export type ToWorker =
  | { type: 'source'; readable: ReadableStream<VideoFrame> }
  | { type: 'output'; writable: WritableStream<VideoFrame> }
  | { type: 'filter'; filter: FrameFilter }
  | { type: 'pause' }
  /** Draw every frame on a canvas, even one in a YUV format (for comparison). */
  | { type: 'canvasOnly' }
  | { type: 'mask'; mask: ImageBitmap }
  /** The model is free: the next frame's small copy goes to the page. */
  | { type: 'wantFrame'; width: number; height: number; minIntervalMs: number }
  | { type: 'stop' };

export type FromWorker =
  | { type: 'frame'; image: ImageBitmap }
  | { type: 'stats'; fps: number; rendered: number; drawMs: number }
  | { type: 'error'; message: string };

declare const self: DedicatedWorkerGlobalScope;

let filter: FrameFilter = 'blur';
let writer: WritableStreamDefaultWriter<VideoFrame> | null = null;
let reader: ReadableStreamDefaultReader<VideoFrame> | null = null;
let mask: ImageBitmap | null = null;
/** The mask as bytes for the planar path, read from `mask` when first needed. */
let maskBytes: Mask | null = null;
let maskCanvas: OffscreenCanvasRenderingContext2D | null = null;
/** Null once a frame that claimed a YUV format could not be copied out: the canvas path from then on. */
let planar: PlanarFilter | null = new PlanarFilter();
let want: { width: number; height: number; minIntervalMs: number } | null = null;
let lastSentAt = -Infinity;
let canvases: FilterCanvases | null = null;
let rendered = 0;
const frameTimes: number[] = [];
/** Time spent drawing and handing over frames in the last second, to report the mean per frame. */
let drawTotal = 0;
let drawCount = 0;

const post = (m: FromWorker, transfer: Transferable[] = []) => self.postMessage(m, transfer);

function canvasesFor(width: number, height: number): FilterCanvases {
  if (canvases && canvases.out.width === width && canvases.out.height === height) return canvases;
  const make = (w: number, h: number) => new OffscreenCanvas(Math.max(1, w), Math.max(1, h));
  const out = make(width, height);
  const small = make(Math.round(width / BLUR_SCALE), Math.round(height / BLUR_SCALE));
  const person = make(width, height);
  canvases = {
    out,
    small,
    person,
    ctx: out.getContext('2d', { alpha: false })!,
    smallCtx: small.getContext('2d', { alpha: false })!,
    personCtx: person.getContext('2d')!,
  };
  return canvases;
}

async function run(r: ReadableStreamDefaultReader<VideoFrame>) {
  for (;;) {
    const { value: frame, done } = await r.read().catch(() => ({ value: undefined, done: true as const }));
    if (done || !frame) return;
    try {
      if (r !== reader || !writer) continue;
      const started = performance.now();
      const out = (await filteredInPlanes(frame)) ?? drawnOnCanvas(frame);
      // The model's copy: small, only when the page asked, at most so often.
      const now = performance.now();
      if (want && filter === 'blur' && now - lastSentAt >= want.minIntervalMs) {
        const size = want;
        want = null;
        lastSentAt = now;
        createImageBitmap(frame, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'low' }).then(
          (image) => post({ type: 'frame', image }, [image]),
          () => undefined,
        );
      }
      // The track takes the frame (and closes it); a full queue drops it rather than piling up.
      if ((writer.desiredSize ?? 1) > 0) void writer.write(out).catch(() => out.close());
      else out.close();
      rendered++;
      drawTotal += performance.now() - started;
      drawCount++;
      frameTimes.push(now);
      while (frameTimes.length && now - frameTimes[0]! > 1000) frameTimes.shift();
    } finally {
      frame.close();
    }
  }
}

async function filteredInPlanes(frame: VideoFrame): Promise<VideoFrame | null> {
  if (!planar) return null;
  try {
    return await planar.filter(frame, filter, filter === 'blur' ? bytesOfMask() : null);
  } catch (err) {
    planar = null;
    post({ type: 'error', message: `filtering in the camera's format failed, drawing on a canvas instead: ${String(err)}` });
    return null;
  }
}

function drawnOnCanvas(frame: VideoFrame): VideoFrame {
  const c = canvasesFor(frame.displayWidth, frame.displayHeight);
  drawFiltered(c, frame, filter, mask);
  return new VideoFrame(c.out, { timestamp: frame.timestamp, ...(frame.duration ? { duration: frame.duration } : {}) });
}

/** The person mask's confidence (its alpha) as bytes, read once per mask. */
function bytesOfMask(): Mask | null {
  if (!mask) return null;
  if (maskBytes) return maskBytes;
  const { width, height } = mask;
  if (!maskCanvas || maskCanvas.canvas.width !== width || maskCanvas.canvas.height !== height) {
    maskCanvas = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true })!;
  }
  maskCanvas.globalCompositeOperation = 'copy';
  maskCanvas.drawImage(mask, 0, 0);
  const rgba = maskCanvas.getImageData(0, 0, width, height).data;
  const alpha = new Uint8Array(width * height);
  for (let i = 0; i < alpha.length; i++) alpha[i] = rgba[i * 4 + 3]!;
  maskBytes = { alpha, width, height };
  return maskBytes;
}

function stopReading() {
  const r = reader;
  reader = null;
  void r?.cancel().catch(() => undefined);
}

const statsTimer = setInterval(() => {
  post({ type: 'stats', fps: frameTimes.length, rendered, drawMs: drawCount ? Math.round((drawTotal / drawCount) * 10) / 10 : 0 });
  drawTotal = drawCount = 0;
}, 1000);

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  switch (m.type) {
    case 'source':
      stopReading();
      reader = m.readable.getReader();
      void run(reader).catch((err: unknown) => post({ type: 'error', message: String(err) }));
      break;
    case 'output':
      writer = m.writable.getWriter();
      break;
    case 'filter':
      filter = m.filter;
      break;
    case 'pause':
      stopReading();
      break;
    case 'canvasOnly':
      planar = null;
      break;
    case 'mask':
      mask?.close();
      mask = m.mask;
      maskBytes = null;
      break;
    case 'wantFrame':
      want = { width: m.width, height: m.height, minIntervalMs: m.minIntervalMs };
      break;
    case 'stop':
      stopReading();
      clearInterval(statsTimer);
      void writer?.close().catch(() => undefined);
      mask?.close();
      self.close();
      break;
  }
};
