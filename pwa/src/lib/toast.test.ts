import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_REMOVE_DELAY_MS } from './uiConstants.ts';
import type * as ToastModule from './toast';

afterEach(() => {
  vi.useRealTimers();
  vi.resetModules();
});

function snapshot(store: typeof ToastModule): string[] {
  return store.peekToasts().map((t) => `${t.title}:${t.open ? 'open' : 'closed'}`);
}

describe('toast', () => {
  it('keeps one toast: a new one replaces the old', async () => {
    const store = await import('./toast');
    store.toast({ title: 'first' });
    store.toast({ title: 'second', action: { label: 'Reload', onClick: () => {} } });
    expect(snapshot(store)).toEqual(['second:open']);
    expect(store.peekToasts()[0]?.action?.label).toBe('Reload');
  });

  it('updates a shown toast in place', async () => {
    const store = await import('./toast');
    const t = store.toast({ title: 'Saving' });
    t.update({ title: 'Saved' });
    expect(snapshot(store)).toEqual(['Saved:open']);
  });

  it('dismiss closes at once and removes after the removal delay', async () => {
    vi.useFakeTimers();
    const store = await import('./toast');
    const t = store.toast({ title: 'hello' });
    t.dismiss();
    expect(snapshot(store)).toEqual(['hello:closed']);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(snapshot(store)).toEqual(['hello:closed']);
    vi.advanceTimersByTime(1);
    expect(snapshot(store)).toEqual([]);
  });
});
