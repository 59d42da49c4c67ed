import { maskImage } from './filterDraw';
import type { FromSegmenter, ToSegmenter } from './segmenterWorker';

/**
 * MediaPipe's person segmentation (tasks-vision), served from Parley's own origin (/mediapipe/,
 * copied there by the build): no third-party CDN sees our users, and the CSP stays 'self' +
 * 'wasm-unsafe-eval'. The model runs in a worker of its own (segmenterWorker.ts).
 */
export const MEDIAPIPE_BASE = '/mediapipe/';
/** The legacy landscape selfie model with the metadata tasks-vision reads (scripts/segmenter-model.mjs). */
const MODEL_FILE = 'selfie_segmenter_landscape.tflite';

/** The landscape model's input size: frames are scaled to it before they are handed over. */
export const MODEL_INPUT = { width: 256, height: 144 };

/** At most this many person masks a second: the mask is reused between them. */
export const MAX_MASKS_PER_S = 12;

export type PersonSegmenter = {
  /** Where the model runs: the GPU (hardware WebGL) or the CPU. */
  delegate: 'GPU' | 'CPU';
  /** The page path: segments one frame; resolves with the mask (alpha = person), null if the model skipped it. */
  segment(image: CanvasImageSource | VideoFrame): Promise<{ mask: ImageBitmap; ms: number } | null>;
  /** The worker path: a channel of the filter worker's own to the model (transfer it there). */
  connect(): MessagePort;
  close(): void;
};

/** Starts the model in its worker; resolves once it is ready to segment. */
export function createPersonSegmenter(): Promise<PersonSegmenter> {
  const worker = new Worker(new URL('./segmenterWorker.ts', import.meta.url), { type: 'module', name: 'parley-segmenter' });
  const send = (m: ToSegmenter, transfer: Transferable[] = []) => worker.postMessage(m, transfer);
  /** The page path's frames are answered in order, one at a time. */
  const waiting: Array<(m: FromSegmenter) => void> = [];
  let closed = false;

  return new Promise<PersonSegmenter>((resolve, reject) => {
    const fail = (message: string) => {
      worker.terminate();
      reject(new Error(message));
    };
    worker.onerror = (e) => fail(`Person segmentation failed to load: ${e.message}`);
    worker.onmessage = (e: MessageEvent<FromSegmenter>) => {
      const m = e.data;
      if (m.type === 'ready') {
        worker.onerror = (err) => {
          console.error('[video] person segmentation worker failed:', err.message);
          // Frames it will never answer: their senders stop waiting and keep the last mask.
          for (const done of waiting.splice(0)) done({ type: 'error', message: err.message });
        };
        worker.onmessage = (next: MessageEvent<FromSegmenter>) => waiting.shift()?.(next.data);
        resolve({
          delegate: m.delegate,
          async segment(image) {
            if (closed) return null;
            const small = await createImageBitmap(image as ImageBitmapSource, {
              resizeWidth: MODEL_INPUT.width,
              resizeHeight: MODEL_INPUT.height,
              resizeQuality: 'low',
            });
            const answer = await new Promise<FromSegmenter>((done) => {
              waiting.push(done);
              send({ type: 'frame', image: small, timestamp: performance.now() }, [small]);
            });
            if (answer.type === 'error') throw new Error(answer.message);
            if (answer.type !== 'mask') return null;
            return { mask: await createImageBitmap(maskImage(answer)), ms: answer.ms };
          },
          connect() {
            const { port1, port2 } = new MessageChannel();
            send({ type: 'port', port: port2 }, [port2]);
            return port1;
          },
          close() {
            if (closed) return;
            closed = true;
            send({ type: 'stop' });
            for (const done of waiting.splice(0)) done({ type: 'skipped' });
          },
        });
      } else if (m.type === 'error') fail(m.message);
    };
    send({
      type: 'init',
      wasmBase: new URL(`${MEDIAPIPE_BASE}tasks`, location.href).href,
      modelUrl: new URL(`${MEDIAPIPE_BASE}${MODEL_FILE}`, location.href).href,
    });
  });
}
