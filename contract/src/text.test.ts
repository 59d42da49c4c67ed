import { describe, expect, it } from 'vitest';
import { sendMessageSchema, topicSchema } from './chat.ts';
import { LINK_LIKE, NUL_REFUSED, revealHidden } from './text.ts';

describe('text that cannot disguise itself', () => {
  it('shows bidi overrides, isolates and invisible characters as visible codes', () => {
    // "‮gpj.exe" shows as "exe.jpg" when the override acts.
    expect(revealHidden('photo\u202Egpj.exe')).toEqual([
      { text: 'photo', hidden: false },
      { text: 'U+202E', hidden: true },
      { text: 'gpj.exe', hidden: false },
    ]);
    expect(
      revealHidden('a\u200Bb\u2066c\u0007')
        .filter((p) => p.hidden)
        .map((p) => p.text),
    ).toEqual(['U+200B', 'U+2066', 'U+0007']);
    // The joiners emoji sequences need stay as they are.
    expect(revealHidden('👩\u200D💻 hi')).toEqual([{ text: '👩\u200D💻 hi', hidden: false }]);
  });

  it('refuses NUL and control characters in messages, hidden characters in topics', () => {
    expect(sendMessageSchema.safeParse({ id: 'a', text: 'hi\u0000' }).error?.issues[0]?.message).toBe(NUL_REFUSED);
    expect(sendMessageSchema.safeParse({ id: 'a', text: 'bell\u0007' }).success).toBe(false);
    expect(sendMessageSchema.safeParse({ id: 'a', text: 'tab\tand\nlines\r\n' }).success).toBe(true);
    expect(topicSchema.safeParse('free\u202Eprizes').success).toBe(false);
    expect(topicSchema.safeParse('jazz').success).toBe(true);
  });

  it('recognises what a link could be made of', () => {
    for (const t of ['free-prizes at evil.example', 'http://x', 'www.win', 'me@mail.com', 'go to bit.ly/x'])
      expect(LINK_LIKE.test(t)).toBe(true);
    for (const t of ['jazz', 'board games', 'k-pop', 'sci-fi', '3.5 mm jack']) expect(LINK_LIKE.test(t)).toBe(false);
  });
});
