import { describe, expect, it } from 'vitest';
import { messageTextSchema, topicSchema } from './matchmaking.ts';
import { createGroupSchema } from './groups.ts';
import { goLiveSchema } from './live.ts';
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
    expect(messageTextSchema.safeParse('hi\u0000').error?.issues[0]?.message).toBe(NUL_REFUSED);
    expect(messageTextSchema.safeParse('bell\u0007').success).toBe(false);
    expect(messageTextSchema.safeParse('tab\tand\nlines\r\n').success).toBe(true);
    expect(topicSchema.safeParse('free\u202Eprizes').success).toBe(false);
    expect(topicSchema.safeParse('jazz').success).toBe(true);
  });

  it('recognises what a link could be made of', () => {
    for (const t of ['free-prizes at evil.example', 'http://x', 'www.win', 'me@mail.com', 'go to bit.ly/x'])
      expect(LINK_LIKE.test(t)).toBe(true);
    for (const t of ['jazz', 'board games', 'k-pop', 'sci-fi', '3.5 mm jack']) expect(LINK_LIKE.test(t)).toBe(false);
  });
});

describe('titles and names strangers see', () => {
  const title = (t: string) => goLiveSchema.safeParse({ title: t, category: 'Music' }).error?.issues.map((i) => i.message) ?? [];
  const name = (n: string) => createGroupSchema.safeParse({ name: n, category: 'Music' }).error?.issues.map((i) => i.message) ?? [];
  const hidden = {
    'bidi overrides and embeddings': ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E'],
    'bidi isolates': ['\u2066', '\u2067', '\u2068', '\u2069'],
    'bidi marks': ['\u200E', '\u200F', '\u061C'],
    'zero-width characters': ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF'],
  };

  it.each(Object.entries(hidden))('refuse %s in a live title and a group name', (_kind, chars) => {
    for (const c of chars) {
      expect(title(`Free${c} gold`)).toEqual(['Title cannot contain invisible or control characters']);
      expect(name(`Free${c} gold`)).toEqual(['Name cannot contain invisible or control characters']);
    }
  });

  it('refuse link text in a live title and a group name', () => {
    for (const t of ['Free gold at evil.example', 'www.win now', 'https://x.y', 'mail me@win.io']) {
      expect(title(t)).toEqual(['Title cannot contain a link or web address']);
      expect(name(t)).toEqual(['Name cannot contain a link or web address']);
    }
  });

  it('keep emoji sequences, the non-joiner of the scripts that spell with it, and plain titles', () => {
    // 👩‍💻 and 👍🏽‍… are one picture; "می‌خواهم" (Persian) is misspelt without its non-joiner.
    for (const t of ['👩\u200D💻 coding live', '👨🏽\u200D🍳 dinner', 'می\u200Cخواهم', 'Jazz night', '3.5 mm jack mods']) {
      expect(title(t)).toEqual([]);
      expect(name(t)).toEqual([]);
    }
    // A joiner between letters is not part of an emoji: it hides inside the word.
    expect(name('Pa\u200Drley team')).toEqual(['Name cannot contain invisible or control characters']);
  });
});
