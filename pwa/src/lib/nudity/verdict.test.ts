import { describe, expect, it } from 'vitest';
import type { NsfwScores } from './guardMessages';
import { judge, watching, type GuardState } from './verdict';

const scores = (porn: number, hentai = 0): NsfwScores => ({ Porn: porn, Hentai: hentai, Sexy: 0, Drawing: 0, Neutral: 1 - porn - hentai });
const run = (frames: NsfwScores[]) => frames.reduce<GuardState>(judge, watching);

describe('the nudity guard verdict', () => {
  it('shields after two explicit frames in a row', () => {
    expect(run([scores(0.9)]).shielded).toBe(false);
    expect(run([scores(0.9), scores(0.8)]).shielded).toBe(true);
  });

  it('counts Porn and Hentai together', () => {
    expect(run([scores(0.4, 0.4), scores(0.35, 0.35)]).shielded).toBe(true);
    expect(run([scores(0.3, 0.3), scores(0.3, 0.3)]).shielded).toBe(false);
  });

  it('needs the explicit frames to follow each other', () => {
    expect(run([scores(0.9), scores(0.1), scores(0.9)]).shielded).toBe(false);
  });

  it('stays shielded when neutral frames follow', () => {
    expect(run([scores(0.9), scores(0.9), scores(0), scores(0)]).shielded).toBe(true);
  });

  it('never shields a neutral picture', () => {
    expect(run(Array.from({ length: 20 }, () => scores(0.05))).shielded).toBe(false);
  });
});
