import type { NsfwScores } from './guardMessages';

/** Porn and Hentai together at or above this mean the frame is explicit. */
export const EXPLICIT_SCORE = 0.7;
/** So one odd frame (a blur of skin while the camera moves) blurs only until the next is judged. */
export const EXPLICIT_FRAMES_IN_A_ROW = 2;

export type GuardState = { explicitRun: number; shielded: boolean };

export const watching: GuardState = { explicitRun: 0, shielded: false };

export const isExplicit = (s: NsfwScores) => (s.Porn ?? 0) + (s.Hentai ?? 0) >= EXPLICIT_SCORE;

/**
 * The next state after one classified frame. Once shielded the video stays blurred whatever
 * follows, until the user reveals it (the caller then stops classifying).
 */
export function judge(state: GuardState, scores: NsfwScores): GuardState {
  if (state.shielded) return state;
  const explicitRun = isExplicit(scores) ? state.explicitRun + 1 : 0;
  return { explicitRun, shielded: explicitRun >= EXPLICIT_FRAMES_IN_A_ROW };
}
