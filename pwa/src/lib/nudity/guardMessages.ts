/** The nudity guard's page ↔ worker messages (a partner's video frames, a conversation's pictures), and the model's input size. */
export const MODEL_SIZE = 224;

export type NsfwClass = 'Drawing' | 'Hentai' | 'Neutral' | 'Porn' | 'Sexy';
export type NsfwScores = Record<NsfwClass, number>;

/** `id`: which picture an answer is for, when several are asked at once (a conversation's pictures). */
export type ToGuardWorker = { type: 'load' } | { type: 'frame'; image: ImageBitmap; id?: number };

export type FromGuardWorker =
  | { type: 'ready'; backend: string; loadMs: number }
  | { type: 'scores'; scores: NsfwScores; ms: number; id?: number }
  | { type: 'error'; message: string; id?: number };
