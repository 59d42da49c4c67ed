import { describe, expect, it } from 'vitest';
import { NOTHING_SEEN, statusAnnouncement, type OwnMessageView, type StatusSeen } from './messageStatus';

const mine = (id: string, status: OwnMessageView['status'], unsent?: 'connection'): OwnMessageView => ({
  id,
  from: 'me',
  text: `text of ${id}`,
  status,
  ...(unsent ? { unsent } : {}),
});

/** Feeds successive states of the conversation; returns what was announced at each. */
function run(...states: OwnMessageView[][]): Array<string | undefined> {
  return runWith(true, ...states);
}
function runWith(canRetry: boolean, ...states: OwnMessageView[][]): Array<string | undefined> {
  let seen: StatusSeen = NOTHING_SEEN;
  return states.map((messages) => {
    const r = statusAnnouncement(seen, messages, canRetry);
    seen = r.seen;
    return r.text;
  });
}

describe('statusAnnouncement', () => {
  it('says nothing about a message going from sending to sent to delivered, nor about the stranger’s', () => {
    const theirs: OwnMessageView = { id: 's', from: 'stranger', text: 'hi', status: 'failed' };
    expect(run([mine('a', 'sending')], [mine('a', 'sent'), theirs], [mine('a', 'delivered'), theirs])).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('tells a refused message once, quoting it, and each new refusal after', () => {
    const long = { ...mine('b', 'failed'), text: 'x'.repeat(60) };
    expect(run([mine('a', 'sending')], [mine('a', 'failed')], [mine('a', 'failed')], [mine('a', 'failed'), long])).toEqual([
      undefined,
      'Message “text of a” not sent. Retry is next to it.',
      undefined,
      `Message “${'x'.repeat(40)}…” not sent. Retry is next to it.`,
    ]);
    expect(run([mine('a', 'failed'), mine('b', 'failed')])).toEqual(['2 messages not sent. Retry is next to each.']);
  });

  it('does not offer Retry when the conversation has none (the chat is over)', () => {
    expect(runWith(false, [mine('a', 'failed', 'connection')], [mine('a', 'failed')])).toEqual([
      'Message not sent yet: sent by itself as soon as it can be.',
      'Message “text of a” not sent.',
    ]);
  });

  it('tells messages waiting for the connection, then their arrival once sent again', () => {
    expect(
      run(
        [mine('a', 'sent'), mine('b', 'sending')],
        [mine('a', 'failed', 'connection'), mine('b', 'failed', 'connection')],
        [mine('a', 'sending'), mine('b', 'sending')], // sent again: still on their way
        [mine('a', 'delivered'), mine('b', 'sent')],
        [mine('a', 'delivered'), mine('b', 'delivered')],
      ),
    ).toEqual([
      undefined,
      '2 messages not sent yet: sent by itself as soon as it can be.',
      undefined,
      'Your 2 waiting messages were sent.',
      undefined,
    ]);
  });

  it('tells arrivals together, once none is waiting any more', () => {
    expect(
      run(
        [mine('a', 'failed', 'connection'), mine('b', 'failed', 'connection')],
        [mine('a', 'delivered'), mine('b', 'sending')],
        [mine('a', 'delivered'), mine('b', 'delivered')],
      ),
    ).toEqual(['2 messages not sent yet: sent by itself as soon as it can be.', undefined, 'Your 2 waiting messages were sent.']);
  });

  it('a waiting message refused when sent again is told as refused', () => {
    expect(run([mine('a', 'failed', 'connection')], [mine('a', 'sending')], [mine('a', 'failed')])).toEqual([
      'Message not sent yet: sent by itself as soon as it can be.',
      undefined,
      'Message “text of a” not sent. Retry is next to it.',
    ]);
  });
});
