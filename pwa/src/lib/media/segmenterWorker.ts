/// <reference lib="webworker" />
/**
 * Person segmentation in a worker of its own: MediaPipe's image segmenter (tasks-vision) with the
 * landscape selfie model, on the GPU where WebGL is hardware-backed, else on the CPU (XNNPACK). A
 * run never holds up the page, nor the filter worker drawing the frames: that worker sends a small
 * copy of its newest frame when the last mask is back, and keeps drawing with the last mask.
 * Frames come on this worker's own port (the page path) or on a port handed over for the filter
 * worker; each answer goes back where its frame came from.
 */
import { FilesetResolver, ImageSegmenter } from '@mediapipe/tasks-vision';
import { hardwareWebgl } from './webglRenderer';

export type ToSegmenter =
  | { type: 'init'; wasmBase: string; modelUrl: string }
  /** A channel to the filter worker: its frames arrive there and its masks go back on it. */
  | { type: 'port'; port: MessagePort }
  | SegmentFrame
  | { type: 'stop' };

export type SegmentFrame = { type: 'frame'; image: ImageBitmap; timestamp: number };

export type FromSegmenter =
  | { type: 'ready'; delegate: 'GPU' | 'CPU' }
  | { type: 'error'; message: string }
  /** The person's confidence per pixel (0 background … 255 person), row by row; `ms`: the model's run. */
  | { type: 'mask'; alpha: Uint8Array; width: number; height: number; ms: number }
  /** The frame could not be segmented (its answer, so the sender asks again). */
  | { type: 'skipped' };

declare const self: DedicatedWorkerGlobalScope;

let segmenter: ImageSegmenter | null = null;
let lastTimestamp = -1;

async function init(wasmBase: string, modelUrl: string): Promise<FromSegmenter> {
  // The module build of the runtime: a module worker has no importScripts.
  const fileset = await FilesetResolver.forVisionTasks(wasmBase, true);
  // A software WebGL (SwiftShader, llvmpipe) runs the model several times slower than XNNPACK.
  const delegate = hardwareWebgl() ? 'GPU' : 'CPU';
  segmenter = await ImageSegmenter.createFromOptions(fileset, {
    baseOptions: { modelAssetPath: modelUrl, delegate },
    runningMode: 'VIDEO',
    outputConfidenceMasks: true,
    outputCategoryMask: false,
  });
  return { type: 'ready', delegate };
}

function segment(m: SegmentFrame): FromSegmenter {
  try {
    if (!segmenter) return { type: 'skipped' };
    const started = performance.now();
    // Video mode wants increasing timestamps; frames of two senders may interleave.
    lastTimestamp = Math.max(lastTimestamp + 1, Math.round(m.timestamp));
    const result = segmenter.segmentForVideo(m.image, lastTimestamp);
    try {
      const mask = result.confidenceMasks?.[0];
      if (!mask) return { type: 'skipped' };
      const confidence = mask.getAsFloat32Array();
      const alpha = new Uint8Array(confidence.length);
      for (let i = 0; i < confidence.length; i++) alpha[i] = confidence[i]! * 255 + 0.5;
      return { type: 'mask', alpha, width: mask.width, height: mask.height, ms: performance.now() - started };
    } finally {
      result.close();
    }
  } finally {
    m.image.close();
  }
}

function answer(to: MessagePort | DedicatedWorkerGlobalScope, m: FromSegmenter) {
  to.postMessage(m, m.type === 'mask' ? [m.alpha.buffer] : []);
}

function onFrame(to: MessagePort | DedicatedWorkerGlobalScope, m: SegmentFrame) {
  let out: FromSegmenter;
  try {
    out = segment(m);
  } catch (err) {
    out = { type: 'error', message: String(err) };
  }
  answer(to, out);
}

self.onmessage = (e: MessageEvent<ToSegmenter>) => {
  const m = e.data;
  switch (m.type) {
    case 'init':
      init(m.wasmBase, m.modelUrl).then(
        (ready) => answer(self, ready),
        (err: unknown) => answer(self, { type: 'error', message: String(err) }),
      );
      break;
    case 'port':
      m.port.onmessage = (p: MessageEvent<SegmentFrame>) => {
        if (p.data.type === 'frame') onFrame(m.port, p.data);
      };
      break;
    case 'frame':
      onFrame(self, m);
      break;
    case 'stop':
      segmenter?.close();
      segmenter = null;
      self.close();
      break;
  }
};
