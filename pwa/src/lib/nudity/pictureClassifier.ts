import { MODEL_SIZE, type FromGuardWorker, type NsfwScores, type ToGuardWorker } from './guardMessages';
import { isExplicit } from './verdict';

/** What the guard thinks of one picture: null when it could not judge (no WebAssembly, a picture it cannot decode). */
export type PictureVerdict = 'explicit' | 'clear' | null;

/** The worker goes after this long without a picture to judge: the model's memory is returned. */
const IDLE_MS = 60_000;

let worker: Worker | null = null;
let idle: ReturnType<typeof setTimeout> | undefined;
let nextId = 1;
const waiting = new Map<number, (scores: NsfwScores | null) => void>();

function classifier(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./nudityWorker.ts', import.meta.url), { type: 'module', name: 'parley-picture-guard' });
  w.onmessage = (e: MessageEvent<FromGuardWorker>) => {
    const m = e.data;
    if (m.type === 'ready' || m.id === undefined) return;
    waiting.get(m.id)?.(m.type === 'scores' ? m.scores : null);
    waiting.delete(m.id);
    if (waiting.size === 0) idleSoon();
  };
  w.onerror = () => stop();
  worker = w;
  return w;
}

function stop() {
  worker?.terminate();
  worker = null;
  for (const answer of waiting.values()) answer(null);
  waiting.clear();
}

function idleSoon() {
  clearTimeout(idle);
  idle = setTimeout(() => waiting.size === 0 && stop(), IDLE_MS);
}

/**
 * Judges a picture on this device with the video guard's model (one worker for the page's
 * pictures, one picture at a time in it); the picture never leaves the device.
 */
export async function judgePicture(picture: ImageBitmapSource): Promise<PictureVerdict> {
  let image: ImageBitmap;
  try {
    image = await createImageBitmap(picture, { resizeWidth: MODEL_SIZE, resizeHeight: MODEL_SIZE, resizeQuality: 'medium' });
  } catch {
    return null;
  }
  clearTimeout(idle);
  const id = nextId++;
  const scores = await new Promise<NsfwScores | null>((resolve) => {
    waiting.set(id, resolve);
    try {
      classifier().postMessage({ type: 'frame', image, id } satisfies ToGuardWorker, [image]);
    } catch {
      waiting.delete(id);
      resolve(null);
    }
  });
  if (!scores) return null;
  return isExplicit(scores) ? 'explicit' : 'clear';
}
