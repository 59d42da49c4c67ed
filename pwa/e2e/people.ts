import { expect, type Browser, type Page } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { baseURL } from '../playwright.config';
import { postSignup } from './signup';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';

/** People for the stored-room specs: signed up through the API in their own browser context. */
export const PASSWORD = 'a good long password';
export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

export async function newPage(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block', ...(viewport ? { viewport } : {}) });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[${page.url()}] page error:`, err.message));
  return page;
}

/** Signs a new user up in the page's context (the refresh cookie lands there) and answers their access token. */
export async function signUp(page: Page, username: string): Promise<{ username: string; token: string; userId: string }> {
  const res = await postSignup(page.request, { data: { username, password: PASSWORD, age: 30, gender: 'female' } });
  expect(res.status(), await res.text()).toBe(201);
  const { accessToken } = (await res.json()) as { accessToken: string };
  const claims = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { userId: string };
  return { username, token: accessToken, userId: claims.userId };
}

/** A socket.io client of a user outside any browser, for filling a room with history. */
export function socketOf(who: { token: string; userId: string; username: string }): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = io(baseURL, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: who.token, protocol: REALTIME_PROTOCOL },
      query: { userId: who.userId, username: who.username },
    });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

export async function send(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

export const conversation = (page: Page) => page.getByRole('log');
export const messageItem = (page: Page, text: string | RegExp) => conversation(page).getByRole('listitem').filter({ hasText: text });

/** Two people become friends the way users do: a request and its acceptance (the people area's API). */
export async function befriend(a: Page, aToken: string, b: Page, bToken: string, bName: string) {
  const sent = await a.request.post('/api/friends/requests', { data: { username: bName }, headers: { authorization: `Bearer ${aToken}` } });
  expect(sent.status(), await sent.text()).toBe(201);
  const incoming = (await (await b.request.get('/api/friends/requests', { headers: { authorization: `Bearer ${bToken}` } })).json()) as {
    incoming: Array<{ requestId: string }>;
  };
  const answered = await b.request.post(`/api/friends/requests/${incoming.incoming[0]!.requestId}/answer`, {
    data: { accept: true },
    headers: { authorization: `Bearer ${bToken}` },
  });
  expect(answered.status()).toBe(204);
}
