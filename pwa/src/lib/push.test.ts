import { afterEach, describe, expect, it, vi } from 'vitest';
import { enablePush, PUSH_STEP_TIMEOUT_MS, PushSetupError, within, type PushStep } from './push';

const subscription = { toJSON: () => ({ endpoint: 'https://push.example/abc', keys: { p256dh: 'k', auth: 'a' } }) };

/** A browser that grants permission, with a service worker and push service as given. */
function browser(opts: { ready?: Promise<unknown>; subscribe?: () => Promise<unknown> }) {
  vi.stubGlobal('Notification', { requestPermission: async () => 'granted' });
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ publicKey: 'AAAA' }), { status: 200 }));
  const reg = { pushManager: { getSubscription: async () => null, subscribe: opts.subscribe ?? (async () => subscription) } };
  vi.stubGlobal('navigator', { serviceWorker: { ready: opts.ready ?? Promise.resolve(reg) } });
  return reg;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('within', () => {
  it('answers in time, and says which step failed or took too long', async () => {
    await expect(within(1000, 'server', Promise.resolve(1))).resolves.toBe(1);
    const failed = within(1000, 'pushService', Promise.reject(new DOMException('Registration failed - push service error', 'AbortError')));
    await expect(failed).rejects.toMatchObject({ name: 'PushSetupError', reason: 'pushService' });
    vi.useFakeTimers();
    const late = within(1000, 'noWorker', new Promise(() => undefined));
    const caught = late.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await caught).toBeInstanceOf(PushSetupError);
  });
});

describe('enablePush', () => {
  it('subscribes and registers, saying each step', async () => {
    browser({});
    const steps: PushStep[] = [];
    const call = vi.fn(async () => ({ ok: true }));
    await expect(enablePush(call, (s) => steps.push(s))).resolves.toBe('enabled');
    expect(steps).toEqual(['permission', 'subscribing', 'registering']);
    expect(call).toHaveBeenCalledWith('/api/notifications/push/subscriptions', subscription.toJSON());
  });

  it('fails in bounded time with a reason when no service worker ever takes control', async () => {
    vi.useFakeTimers();
    browser({ ready: new Promise(() => undefined) });
    const result = enablePush(async () => ({ ok: true })).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(PUSH_STEP_TIMEOUT_MS.worker);
    expect(await result).toMatchObject({ reason: 'noWorker' });
  });

  it('a push service that never answers, or refuses, is one reason, not the browser message', async () => {
    vi.useFakeTimers();
    browser({ subscribe: () => new Promise(() => undefined) });
    const hung = enablePush(async () => ({ ok: true })).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(PUSH_STEP_TIMEOUT_MS.subscribe);
    expect(await hung).toMatchObject({ reason: 'pushService' });
    vi.useRealTimers();
    browser({ subscribe: async () => Promise.reject(new DOMException('Registration failed - push service error', 'AbortError')) });
    await expect(enablePush(async () => ({ ok: true }))).rejects.toMatchObject({ reason: 'pushService' });
  });

  it('the server refusing the device is its own reason', async () => {
    browser({});
    await expect(enablePush(async () => ({ ok: false }))).rejects.toMatchObject({ reason: 'server' });
  });
});
