import { describe, expect, it, vi } from 'vitest';
import { chatEvents } from '@parley/contract/chat';
import type { ConversationMessage } from '../lib/conversation';
import { createOutbox, type MessageTrack } from './outbox';
import { setUpSocketServer, type SocketServerTest } from './testing/socketServer';

const t = setUpSocketServer({} as SocketServerTest);

/** A conversation kept in a plain array, in a room until `over`. */
function conversation(waiting = false) {
  const messages: ConversationMessage[] = [];
  const track: MessageTrack & { over: boolean } = {
    over: false,
    inRoom: () => !track.over,
    messages: () => messages,
    add: (m) => messages.push({ ...m }),
    setStatus: (c) => {
      const m = messages.find((x) => x.id === c.id)!;
      m.status = c.status;
      if (c.unsent) m.unsent = c.unsent;
      else delete m.unsent;
    },
    waiting: () => waiting,
  };
  return { messages, track };
}

describe('outbox', () => {
  it('sends a waiting backlog in rounds of the policy it is given', async () => {
    const texts: string[] = [];
    t.server.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) => {
      texts.push(m.text);
      ack({ ok: true, id: m.id, messageId: `s-${m.id}`, sentAt: 1, delivered: true });
    });
    const { messages, track } = conversation();
    const outbox = createOutbox(track, { round: 2, roundMs: 100 });
    for (const id of ['a', 'b', 'c', 'd', 'e'])
      messages.push({ id, text: id, sentAt: 1, from: 'me', status: 'failed', unsent: 'connection' });
    outbox.resendWaiting({ unconfirmed: false }, () => undefined);
    await vi.waitFor(() => expect(texts).toEqual(['a', 'b']));
    await vi.waitFor(() => expect(messages.every((m) => m.status === 'delivered')).toBe(true));
    expect(texts).toEqual(['a', 'b', 'c', 'd', 'e']);
    outbox.dispose();
  });

  it('once disposed, a later round is not sent and answers on their way change nothing', async () => {
    const answers: Array<() => void> = [];
    const texts: string[] = [];
    t.server.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) => {
      texts.push(m.text);
      answers.push(() => ack({ ok: true, id: m.id, messageId: `s-${m.id}`, sentAt: 1, delivered: true }));
    });
    const { messages, track } = conversation();
    const outbox = createOutbox(track, { round: 1, roundMs: 300 });
    for (const id of ['a', 'b']) messages.push({ id, text: id, sentAt: 1, from: 'me', status: 'failed', unsent: 'connection' });
    outbox.resendWaiting({ unconfirmed: false }, () => undefined);
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    outbox.dispose();
    answers[0]!();
    await new Promise((r) => setTimeout(r, 400));
    expect(texts).toEqual(['a']);
    expect(messages[0]!.status).toBe('sending');
  });

  it('a message typed while the partner cannot be reached waits, without going to the server', async () => {
    const sent: string[] = [];
    t.server.on(chatEvents.message, (m: { text: string }) => sent.push(m.text));
    const { messages, track } = conversation(true);
    const outbox = createOutbox(track);
    expect(await outbox.send('later', () => undefined)).toBe(true);
    expect(messages[0]).toMatchObject({ text: 'later', status: 'failed', unsent: 'connection' });
    await new Promise((r) => setTimeout(r, 50));
    expect(sent).toEqual([]);
    outbox.dispose();
  });
});
