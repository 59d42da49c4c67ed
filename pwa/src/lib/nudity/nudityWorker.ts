/// <reference lib="webworker" />
/**
 * The nudity guard's classifier, in a worker so a model run never holds up the call's frames: the
 * page sends a small copy of the partner's frame or of a stranger's picture (an ImageBitmap,
 * transferred), this answers with nsfwjs's five class scores. The model and the WebAssembly backend come from Parley's own origin
 * (/nsfw/); the frames never leave this worker.
 */
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { load, type NSFWJS } from 'nsfwjs/core';
import { MODEL_SIZE, type FromGuardWorker, type NsfwScores, type ToGuardWorker } from './guardMessages';

declare const self: DedicatedWorkerGlobalScope;

const post = (m: FromGuardWorker) => self.postMessage(m);
let model: Promise<NSFWJS> | null = null;
const canvas = new OffscreenCanvas(MODEL_SIZE, MODEL_SIZE);
const ctx = canvas.getContext('2d', { willReadFrequently: true })!;

async function backend(): Promise<string> {
  // WebAssembly (SIMD where the browser has it) is several times faster than plain JavaScript and
  // needs no GPU; the cpu backend is the fallback.
  setWasmPaths(`${self.location.origin}/nsfw/`);
  try {
    if (await tf.setBackend('wasm')) return 'wasm';
  } catch {
    // fall through
  }
  await tf.setBackend('cpu');
  return 'cpu';
}

function loadModel(): Promise<NSFWJS> {
  model ??= (async () => {
    const started = performance.now();
    const name = await backend();
    const m = await load(`${self.location.origin}/nsfw/model.json`, { size: MODEL_SIZE });
    post({ type: 'ready', backend: name, loadMs: Math.round(performance.now() - started) });
    return m;
  })();
  return model;
}

async function classify(image: ImageBitmap, id: number | undefined) {
  try {
    const m = await loadModel();
    const started = performance.now();
    ctx.drawImage(image, 0, 0, MODEL_SIZE, MODEL_SIZE);
    const predictions = await m.classify(ctx.getImageData(0, 0, MODEL_SIZE, MODEL_SIZE), 5);
    const scores = Object.fromEntries(predictions.map((p) => [p.className, p.probability])) as NsfwScores;
    post({ type: 'scores', scores, ms: Math.round(performance.now() - started), ...(id !== undefined && { id }) });
  } catch (e) {
    model = null;
    post({ type: 'error', message: e instanceof Error ? e.message : String(e), ...(id !== undefined && { id }) });
  } finally {
    image.close();
  }
}

self.onmessage = (e: MessageEvent<ToGuardWorker>) => {
  const m = e.data;
  if (m.type === 'load') void loadModel().catch((err: unknown) => post({ type: 'error', message: String(err) }));
  else if (m.type === 'frame') void classify(m.image, m.id);
};
