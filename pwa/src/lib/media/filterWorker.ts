/// <reference lib="webworker" />
/**
 * The background filter's frame loop, in a worker: every camera frame is filtered here (grayscale,
 * or the person sharp over a blurred background) and written to the outgoing track, whatever the
 * page is doing. Where WebGL 2 runs on a real GPU, every frame is filtered there (glCompositor.ts);
 * elsewhere frames in YUV, as cameras give them, are filtered in their own planes on the CPU
 * (planarFilter.ts), and others are drawn on a canvas. The person-segmentation model runs in a worker
 * of its own (segmenterWorker.ts): this one sends it a small copy of the newest frame when its last
 * mask is back (at most MAX_MASKS_PER_S a second) and draws every frame with the latest mask, so a
 * model run delays no frame.
 */
import { BLUR_SCALE, drawFiltered, maskImage, type FilterCanvases, type FrameFilter } from './filterDraw';
import { GlCompositor } from './glCompositor';
import { hardwareWebgl } from './webglRenderer';
import { PlanarFilter, type Mask } from './planarFilter';
import type { FromSegmenter, SegmentFrame } from './segmenterWorker';

export type ToWorker =
  | { type: 'source'; readable: ReadableStream<VideoFrame> }
  | { type: 'output'; writable: WritableStream<VideoFrame> }
  | { type: 'filter'; filter: FrameFilter }
  | { type: 'pause' }
  /**
   * Force a path (tests and benches compare them): `gpu` even on a software renderer, `planes`
   * even with a GPU, `canvas` for every frame, even one in a YUV format.
   */
  | { type: 'path'; path: FilterPath }
  /** The person-segmentation model's channel, and the size and rate of the frames it takes. */
  | { type: 'segmenter'; port: MessagePort; width: number; height: number; minIntervalMs: number }
  | { type: 'stop' };

/** Where frames are filtered: WebGL, the CPU in the camera's planes, or a 2D canvas. */
export type FilterPath = 'gpu' | 'planes' | 'canvas';

export type FromWorker =
  | { type: 'stats'; fps: number; rendered: number; drawMs: number; maskFps: number; maskMs: number; path: FilterPath }
  | { type: 'error'; message: string };

declare const self: DedicatedWorkerGlobalScope;

let filter: FrameFilter = 'blur';
let writer: WritableStreamDefaultWriter<VideoFrame> | null = null;
let reader: ReadableStreamDefaultReader<VideoFrame> | null = null;
/** The latest person mask (alpha = person), reused for every frame until the next. */
let mask: Mask | null = null;
/** The same mask as an image for the canvas path, drawn from `mask` when first needed. */
let maskCanvas: OffscreenCanvas | null = null;
let maskDrawn = false;
/** Null once a frame that claimed a YUV format could not be copied out: the canvas path from then on. */
let planar: PlanarFilter | null = new PlanarFilter();
/** The GPU path: made on the first frame where the GPU is real (or when asked), null once it failed. */
let gl: GlCompositor | null = null;
let gpuWanted: boolean | undefined;
let lastPath: FilterPath = 'planes';
let model: { port: MessagePort; width: number; height: number; minIntervalMs: number } | null = null;
/** A frame is with the model: the next goes once its mask is back. */
let segmenting = false;
let lastSentAt = -Infinity;
const maskTimes: number[] = [];
const maskRunMs: number[] = [];
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
      const out = filteredOnGpu(frame) ?? (await filteredInPlanes(frame)) ?? drawnOnCanvas(frame);
      const now = performance.now();
      if (filter === 'blur') toModel(frame, now);
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

/** The model's copy of the newest frame: small, when the model is free, at most so often. */
function toModel(frame: VideoFrame, now: number) {
  const m = model;
  if (!m || segmenting || now - lastSentAt < m.minIntervalMs) return;
  segmenting = true;
  lastSentAt = now;
  createImageBitmap(frame, { resizeWidth: m.width, resizeHeight: m.height, resizeQuality: 'low' }).then(
    (image) => {
      const message: SegmentFrame = { type: 'frame', image, timestamp: frame.timestamp / 1000 };
      m.port.postMessage(message, [image]);
    },
    () => {
      segmenting = false;
    },
  );
}

function fromModel(m: FromSegmenter) {
  segmenting = false;
  if (m.type === 'error') post({ type: 'error', message: `person segmentation failed: ${m.message}` });
  if (m.type !== 'mask') return;
  mask = { alpha: m.alpha, width: m.width, height: m.height };
  maskDrawn = false;
  const now = performance.now();
  maskTimes.push(now);
  while (maskTimes.length && now - maskTimes[0]! > 1000) maskTimes.shift();
  maskRunMs.push(m.ms);
  if (maskRunMs.length > 12) maskRunMs.shift();
}

function filteredOnGpu(frame: VideoFrame): VideoFrame | null {
  gpuWanted ??= hardwareWebgl();
  if (!gpuWanted) return null;
  try {
    gl ??= new GlCompositor();
    const out = gl.draw(frame, filter, filter === 'blur' ? mask : null);
    lastPath = 'gpu';
    return out;
  } catch (err) {
    gl?.close();
    gl = null;
    gpuWanted = false;
    post({ type: 'error', message: `filtering on the GPU failed, filtering on the CPU instead: ${String(err)}` });
    return null;
  }
}

async function filteredInPlanes(frame: VideoFrame): Promise<VideoFrame | null> {
  if (!planar) return null;
  try {
    const out = await planar.filter(frame, filter, filter === 'blur' ? mask : null);
    if (out) lastPath = 'planes';
    return out;
  } catch (err) {
    planar = null;
    post({ type: 'error', message: `filtering in the camera's format failed, drawing on a canvas instead: ${String(err)}` });
    return null;
  }
}

function drawnOnCanvas(frame: VideoFrame): VideoFrame {
  const c = canvasesFor(frame.displayWidth, frame.displayHeight);
  drawFiltered(c, frame, filter, filter === 'blur' ? imageOfMask() : null);
  lastPath = 'canvas';
  return new VideoFrame(c.out, { timestamp: frame.timestamp, ...(frame.duration ? { duration: frame.duration } : {}) });
}

/** The latest mask as an image (white, its alpha the person), drawn once per mask. */
function imageOfMask(): OffscreenCanvas | null {
  if (!mask) return null;
  if (maskDrawn && maskCanvas) return maskCanvas;
  const { width, height } = mask;
  if (!maskCanvas || maskCanvas.width !== width || maskCanvas.height !== height) maskCanvas = new OffscreenCanvas(width, height);
  maskCanvas.getContext('2d')!.putImageData(maskImage(mask), 0, 0);
  maskDrawn = true;
  return maskCanvas;
}

function stopReading() {
  const r = reader;
  reader = null;
  void r?.cancel().catch(() => undefined);
}

const statsTimer = setInterval(() => {
  const now = performance.now();
  while (maskTimes.length && now - maskTimes[0]! > 1000) maskTimes.shift();
  post({
    type: 'stats',
    fps: frameTimes.length,
    rendered,
    drawMs: drawCount ? Math.round((drawTotal / drawCount) * 10) / 10 : 0,
    maskFps: maskTimes.length,
    maskMs: maskRunMs.length ? Math.round((maskRunMs.reduce((a, b) => a + b, 0) / maskRunMs.length) * 10) / 10 : 0,
    path: lastPath,
  });
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
    case 'path':
      gpuWanted = m.path === 'gpu';
      if (!gpuWanted) {
        gl?.close();
        gl = null;
      }
      if (m.path === 'canvas') planar = null;
      break;
    case 'segmenter':
      model?.port.close();
      model = { port: m.port, width: m.width, height: m.height, minIntervalMs: m.minIntervalMs };
      segmenting = false;
      m.port.onmessage = (e: MessageEvent<FromSegmenter>) => fromModel(e.data);
      break;
    case 'stop':
      stopReading();
      clearInterval(statsTimer);
      void writer?.close().catch(() => undefined);
      model?.port.close();
      gl?.close();
      self.close();
      break;
  }
};
