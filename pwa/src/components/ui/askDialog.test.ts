import { describe, expect, it } from 'vitest';
import { ask, peekAsk } from './askDialog';

const request = { title: 'Ban ana?', confirmLabel: 'Ban', reason: { label: 'Reason', maxLength: 200 } };

describe('ask', () => {
  it('shows one question and resolves with the answer, then shows none', async () => {
    const answered = ask(request);
    expect(peekAsk()?.title).toBe('Ban ana?');
    peekAsk()!.answer({ reason: 'spam' });
    await expect(answered).resolves.toEqual({ reason: 'spam' });
    expect(peekAsk()).toBeNull();
  });

  it('a new question cancels the one still open', async () => {
    const first = ask(request);
    const second = ask({ ...request, title: 'Remove ben?' });
    await expect(first).resolves.toBeNull();
    expect(peekAsk()?.title).toBe('Remove ben?');
    peekAsk()!.answer(null);
    await expect(second).resolves.toBeNull();
    expect(peekAsk()).toBeNull();
  });
});
