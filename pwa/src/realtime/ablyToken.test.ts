import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchAblyTokenRequest, RealtimeTokenError } from './ablyToken';

const TOKEN_REQUEST = { keyName: 'app.key', ttl: 600000, capability: '{}', clientId: 'u1', timestamp: 1, nonce: 'n', mac: 'm' };

async function failure(p: Promise<unknown>): Promise<RealtimeTokenError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RealtimeTokenError);
  return err as RealtimeTokenError;
}

afterEach(() => vi.useRealTimers());

describe('the real-time client’s token call', () => {
  it('asks the token path with the access token and hands back the token request', async () => {
    const fetch = vi.fn((_url: string, _init?: RequestInit) => Promise.resolve(Response.json(TOKEN_REQUEST)));
    await expect(fetchAblyTokenRequest('t1', { fetch: fetch as typeof globalThis.fetch })).resolves.toEqual(TOKEN_REQUEST);
    expect(fetch.mock.calls[0]![0]).toBe('/api/auth/ablyclienttoken');
    expect(fetch.mock.calls[0]![1]!.headers).toEqual({ authorization: 'Bearer t1' });
  });

  it('an answer that does not come in time is abandoned: "Request timed out", 408', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const fetch = (_url: string, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        signal = init?.signal ?? undefined;
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const pending = failure(fetchAblyTokenRequest('t1', { fetch: fetch as typeof globalThis.fetch, timeoutMs: 15_000 }));
    await vi.advanceTimersByTimeAsync(14_999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = await pending;
    expect(signal?.aborted).toBe(true);
    expect(err.message).toBe('Request timed out');
    expect(err.statusCode).toBe(408);
  });

  it.each([500, 503])(
    'a %i answer is "Error response received from server: %i", with the server’s code when it sent one',
    async (status) => {
      const fetch = () =>
        Promise.resolve(
          Response.json({ message: 'Hosted messaging is not configured on this server.', code: 'ably_not_configured' }, { status }),
        );
      const err = await failure(fetchAblyTokenRequest('t1', { fetch: fetch as typeof globalThis.fetch }));
      expect(err.message).toBe(`Error response received from server: ${status}`);
      expect(err.statusCode).toBe(status);
      expect(err.code).toBe('ably_not_configured');
    },
  );

  it('a refusal without a readable body still says its status', async () => {
    const fetch = () => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 }));
    const err = await failure(fetchAblyTokenRequest('t1', { fetch: fetch as typeof globalThis.fetch }));
    expect(err.message).toBe('Error response received from server: 502');
    expect(err.statusCode).toBe(502);
    expect(err.code).toBeNull();
  });

  it('no answer at all (offline) is "No Server Response"', async () => {
    const fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const err = await failure(fetchAblyTokenRequest('t1', { fetch: fetch as typeof globalThis.fetch }));
    expect(err.message).toBe('No Server Response');
    expect(err.statusCode).toBe(0);
  });
});
