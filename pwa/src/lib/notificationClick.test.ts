import { describe, expect, it } from 'vitest';
import { appPath, openFromNotification, type ClientsLike, type WindowClientLike } from './notificationClick';

const ORIGIN = 'https://parley.example';

/** Windows of the browser as `clients.matchAll` lists them, recording what the click handler did. */
function browserWith(urls: string[], { focusRefused = false } = {}) {
  const log: string[] = [];
  const windows: WindowClientLike[] = urls.map((url) => ({
    url,
    focus: async () => {
      log.push(`focus ${url}`);
      if (focusRefused) throw new Error('InvalidAccessError');
      return undefined;
    },
    postMessage: (m: unknown) => log.push(`message ${url} ${JSON.stringify(m)}`),
  }));
  const clients: ClientsLike = {
    matchAll: async () => windows,
    openWindow: async (url) => {
      log.push(`open ${url}`);
      return undefined;
    },
  };
  return { clients, log };
}

describe('a click on a notification', () => {
  it('brings an open Parley window forward and takes it to the conversation', async () => {
    const { clients, log } = browserWith(['https://elsewhere.example/', `${ORIGIN}/dashboard`]);
    expect(await openFromNotification(clients, ORIGIN, { link: '/messages/ana' })).toBe('navigated');
    expect(log).toEqual([`focus ${ORIGIN}/dashboard`, `message ${ORIGIN}/dashboard {"type":"NAVIGATE","link":"/messages/ana"}`]);
  });

  it('opens a window at the link when no Parley window is open', async () => {
    const { clients, log } = browserWith(['https://elsewhere.example/']);
    expect(await openFromNotification(clients, ORIGIN, { link: '/messages/ana' })).toBe('opened');
    expect(log).toEqual(['open /messages/ana']);
  });

  it('still navigates when the browser refuses focus', async () => {
    const { clients, log } = browserWith([`${ORIGIN}/profile`], { focusRefused: true });
    await openFromNotification(clients, ORIGIN, { link: '/users/bo' });
    expect(log.at(-1)).toBe(`message ${ORIGIN}/profile {"type":"NAVIGATE","link":"/users/bo"}`);
  });

  it('never opens a link outside the app', async () => {
    for (const link of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 42, undefined])
      expect(appPath(link), String(link)).toBe('/dashboard');
    const { clients, log } = browserWith([]);
    await openFromNotification(clients, ORIGIN, { link: '//evil.example/x' });
    await openFromNotification(clients, ORIGIN, null);
    expect(log).toEqual(['open /dashboard', 'open /dashboard']);
  });
});
