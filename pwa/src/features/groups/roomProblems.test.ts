import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { problemTitle, refusalMessage, removedMessage } from './roomProblems';

// The words are in the interface language: English here.
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('a room that cannot be opened', () => {
  it('is titled and explained by the refusal code, the server’s words standing in for an unknown one', () => {
    expect(problemTitle('banned')).toBe('You are banned from this room');
    expect(problemTitle('something_new')).toBe('This room cannot be opened');
    expect(refusalMessage('invite_only', 'ignored')).toBe('This room is invite-only. Ask a member for the invite link.');
    expect(refusalMessage('something_new', 'As the server said.')).toBe('As the server said.');
  });

  it('says who removed the person and keeps the reason they wrote as written', () => {
    const kicked = { roomId: 'r', reason: 'kicked' as const, by: 'ana', note: 'ana removed you from this room: no spam: really' };
    expect(removedMessage(kicked)).toBe('ana removed you from this room: no spam: really');
    expect(removedMessage({ ...kicked, reason: 'banned', note: 'ana banned you from this room.' })).toBe('ana banned you from this room.');
    expect(removedMessage({ ...kicked, reason: 'closed', note: 'ana closed this room.' })).toBe('ana closed this room.');
    // A note this page cannot read (another kind of room) is shown as the server wrote it.
    expect(removedMessage({ ...kicked, note: 'ana removed you from this stream.' })).toBe('ana removed you from this stream.');
    expect(removedMessage({ ...kicked, by: null, note: 'Closed.' })).toBe('Closed.');
  });
});
