import { describe, expect, it } from 'vitest';
import { setupI18n } from '@lingui/core';
import { english } from './testing';
import { durationInWords, minutesInWords } from './duration';
import { messages as deShell } from '../../locales/de/shell.po';

describe('spans of time in words', () => {
  it('say how long something lasted, to the second under an hour', () => {
    expect(durationInWords(0, english)).toBe('less than a minute');
    expect(durationInWords(59_999, english)).toBe('less than a minute');
    expect(durationInWords(60_000, english)).toBe('1 min');
    expect(durationInWords(90_000, english)).toBe('1 min 30 s');
    expect(durationInWords(42 * 60_000 + 5_000, english)).toBe('42 min 5 s');
    expect(durationInWords(65 * 60_000 + 30_000, english)).toBe('1 h 5 min');
    expect(durationInWords(2 * 3_600_000, english)).toBe('2 h');
    expect(durationInWords(-5_000, english)).toBe('less than a minute');
  });

  it('count whole minutes, in hours past the limit', () => {
    expect(minutesInWords(0, english)).toBe('0 min');
    expect(minutesInWords(59, english)).toBe('59 min');
    expect(minutesInWords(60, english)).toBe('1 h');
    expect(minutesInWords(60, english, 60)).toBe('60 min');
    expect(minutesInWords(125, english)).toBe('2 h 5 min');
  });

  it('follow the interface language', () => {
    const german = setupI18n({ locale: 'de', messages: { de: deShell } });
    expect(durationInWords(90_000, german)).toBe('1 Min. 30 Sek.');
    expect(durationInWords(30_000, german)).toBe('weniger als eine Minute');
    expect(minutesInWords(125, german)).toBe('2 Std. 5 Min.');
  });
});
