/** The nudity guard's page ↔ worker messages, and the model's input size. */
export const MODEL_SIZE = 224;

export type NsfwClass = 'Drawing' | 'Hentai' | 'Neutral' | 'Porn' | 'Sexy';
export type NsfwScores = Record<NsfwClass, number>;

export type ToGuardWorker = { type: 'load' } | { type: 'frame'; image: ImageBitmap };

export type FromGuardWorker =
  | { type: 'ready'; backend: string; loadMs: number }
  | { type: 'scores'; scores: NsfwScores; ms: number }
  | { type: 'error'; message: string };
