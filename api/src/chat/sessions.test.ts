import { describe, expect, it } from 'vitest';
import type { TokenUser } from '@parley/contract/auth';
import { EV, type SocketError, type StartSearch } from '@parley/contract/chat';
import { createInProcessMatchmaker } from './matchmaker.ts';
import { ChatSessions, type ChatOutbox } from './sessions.ts';

const user = (userId: string): TokenUser => ({
  userId,
  username: userId,
  avatar: '',
  gender: 'male',
  age: 30,
  isVerified: true,
  premiumUser: 'free tier',
});

const search: StartSearch = {
  roomType: 'textChat',
  automaticReconnect: true,
  filters: { topics: [], gender: 'All', ageRange: { minAge: 18, maxAge: 99 } },
};

/** Records what each socket was sent. */
function recordingOutbox() {
  const sent: Array<[string, string, unknown]> = [];
  const outbox: ChatOutbox = {
    searching: (id, p) => sent.push([id, EV.searching, p]),
    matched: (id, p) => sent.push([id, EV.matched, p]),
    partnerLeft: (id, p) => sent.push([id, EV.partnerLeft, p]),
    typing: (id, p) => sent.push([id, EV.typing, p]),
    error: (id, p) => sent.push([id, EV.error, p]),
    deliver: (_id, _m, done) => done(true),
  };
  return { sent, outbox };
}

describe('chat sessions', () => {
  it('a requeue that fails stops the search and tells the client, instead of searching for ever', async () => {
    const { sent, outbox } = recordingOutbox();
    let blocksFail = false;
    const errors: unknown[] = [];
    const sessions = new ChatSessions({
      outbox,
      createMatchmaker: (onMatch) => createInProcessMatchmaker(onMatch),
      blocksOf: async () => {
        if (blocksFail) throw new Error('database unavailable');
        return new Set<string>();
      },
      recordTopics: () => undefined,
      allowMessage: () => true,
      onError: (err) => errors.push(err),
    });
    sessions.connect('a', user('ua'));
    sessions.connect('b', user('ub'));
    await sessions.start('a', search);
    await sessions.start('b', search);
    expect(sent.filter(([, ev]) => ev === EV.matched).map(([id]) => id).sort()).toEqual(['a', 'b']);

    // b skips; a has automatic reconnect, so the server requeues a, and that fails.
    blocksFail = true;
    await sessions.next('b').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20));
    const toA = sent.filter(([id]) => id === 'a').map(([, ev, p]) => [ev, p]);
    expect(toA).toContainEqual([EV.partnerLeft, expect.objectContaining({ reason: 'skip' })]);
    expect(toA.at(-1)).toEqual([EV.error, { event: EV.next, message: expect.any(String), code: 'internal' } satisfies SocketError]);
    expect(errors.length).toBeGreaterThan(0);

    // a is not left half searching: a new start works once the database is back.
    blocksFail = false;
    const before = sent.length;
    sessions.connect('c', user('uc'));
    await sessions.start('c', search);
    await sessions.start('a', search);
    const matched = sent.slice(before).filter(([, ev]) => ev === EV.matched);
    expect(matched.map(([id]) => id).sort()).toEqual(['a', 'c']);
    await sessions.close();
  });
});
