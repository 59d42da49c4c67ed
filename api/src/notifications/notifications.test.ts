import { describe, expect, it } from 'vitest';
import { notificationEvents, type NotificationPage } from '@parley/contract/notifications';
import { tokenUserOf } from '../db/accounts.ts';
import { next, socketTestServer } from '../testing/socketClients.ts';
import { member } from '../testing/people.ts';
import { inQuietHours } from './quietHours.ts';
import { said } from '../testing/words.ts';

describe('GET /api/notifications and read marks', () => {
  const clients = socketTestServer();
  const server = () => clients.server();

  it('pages newest first, counts unread, and marks one or all read on every page of the user', async () => {
    const ana = await member(server());
    for (let i = 0; i < 5; i++)
      await server().notifier.notify(ana.id, { kind: 'friendRequest', words: said(`n${i}`, 'hi'), link: `/users/u${i}` });
    const first = (await (await ana.call('/api/notifications?limit=2')).json()) as NotificationPage;
    expect(first.notificationList.map((n) => n.text)).toEqual(['n4: hi', 'n3: hi']);
    expect(first.unread).toBe(5);
    const second = (await (await ana.call(`/api/notifications?limit=2&before=${first.nextBefore}`)).json()) as NotificationPage;
    expect(second.notificationList.map((n) => n.text)).toEqual(['n2: hi', 'n1: hi']);
    const last = (await (await ana.call(`/api/notifications?limit=2&before=${second.nextBefore}`)).json()) as NotificationPage;
    expect(last.notificationList.map((n) => n.text)).toEqual(['n0: hi']);
    expect(last.nextBefore).toBeNull();

    const otherTab = await clients.open(tokenUserOf(ana));
    const told = next<{ notificationIds: string[] }>(otherTab, notificationEvents.read);
    const one = first.notificationList[0]!.notificationId;
    const res = await ana.call('/api/notifications/read', { method: 'POST', json: { notificationIds: [one] } });
    expect(await res.json()).toEqual({ notificationIds: [one] });
    expect(await told).toEqual({ notificationIds: [one] });
    expect(((await (await ana.call('/api/notifications')).json()) as NotificationPage).unread).toBe(4);
    await ana.call('/api/notifications/read-all', { method: 'POST' });
    expect(((await (await ana.call('/api/notifications')).json()) as NotificationPage).unread).toBe(0);
  });

  it("cannot read or mark another user's notifications (IDOR)", async () => {
    const [ana, eve] = [await member(server()), await member(server())];
    const { notification } = await server().notifier.notify(ana.id, {
      kind: 'friendRequest',
      words: said('x', 'private'),
      link: '/users/x',
    });
    const res = await eve.call('/api/notifications/read', { method: 'POST', json: { notificationIds: [notification!.notificationId] } });
    expect(await res.json()).toEqual({ notificationIds: [] });
    expect(((await (await eve.call('/api/notifications')).json()) as NotificationPage).notificationList).toEqual([]);
    expect(((await (await ana.call('/api/notifications')).json()) as NotificationPage).unread).toBe(1);
  });

  it('answers 400 for bad queries and bodies, 401 without a token', async () => {
    const ana = await member(server());
    for (const q of ['limit=0', 'limit=500', 'before=abc', 'evil=1'])
      expect((await ana.call(`/api/notifications?${q}`)).status, q).toBe(400);
    expect((await ana.call('/api/notifications/read', { method: 'POST', json: { notificationIds: ['x'] } })).status).toBe(400);
    expect((await ana.call('/api/notifications/read', { method: 'POST', json: {} })).status).toBe(400);
    expect((await server().api('/api/notifications')).status).toBe(401);
    expect((await server().api('/api/notifications/read-all', { method: 'POST' })).status).toBe(401);
  });

  it("a visible page of a conversation marks that conversation's notices read, only the user's own and only there", async () => {
    const [ana, eve] = [await member(server()), await member(server())];
    const dm = { kind: 'directMessage' as const, words: said('ben', 'hi'), link: '/messages/ben', coalesceKey: 'dm:r1' };
    await server().notifier.notify(ana.id, dm);
    await server().notifier.notify(ana.id, { kind: 'friendRequest', words: said('ben', 'wants to be your friend'), link: '/users/ben' });
    await server().notifier.notify(eve.id, { ...dm, coalesceKey: 'dm:r2' });
    const unread = async (who: typeof ana) => ((await (await who.call('/api/notifications')).json()) as NotificationPage).unread;

    const page = await clients.open(tokenUserOf(ana));
    // A hidden page, and a page that is not a conversation, read nothing.
    page.emit(notificationEvents.focus, { path: '/messages/ben', visible: false });
    page.emit(notificationEvents.focus, { path: '/users/ben', visible: true });
    const told = next<{ notificationIds: string[] }>(page, notificationEvents.read);
    page.emit(notificationEvents.focus, { path: '/messages/ben', visible: true });
    expect((await told).notificationIds).toHaveLength(1);
    expect(await unread(ana)).toBe(1); // the friend request stays
    expect(await unread(eve)).toBe(1); // another user's notice with the same link stays
  });

  it('stores nothing when both in-app and push are off for the kind', async () => {
    const ana = await member(server());
    await ana.call('/api/settings', { method: 'PATCH', json: { notifications: { friendAccepted: { inApp: false, push: false } } } });
    expect(await server().notifier.notify(ana.id, { kind: 'friendAccepted', words: said('x', 'hi'), link: '/users/x' })).toEqual({
      notification: null,
      push: null,
      skipped: 'preferences',
    });
    expect(((await (await ana.call('/api/notifications')).json()) as NotificationPage).notificationList).toEqual([]);
  });
});

describe('quiet hours', () => {
  const at = (iso: string) => new Date(iso);
  it('wraps past midnight and follows the time zone', () => {
    const q = { start: '22:00', end: '07:00', timeZone: 'Europe/Paris' };
    expect(inQuietHours(q, at('2026-01-10T21:30:00Z'))).toBe(true); // 22:30 in Paris
    expect(inQuietHours(q, at('2026-01-10T05:59:00Z'))).toBe(true); // 06:59
    expect(inQuietHours(q, at('2026-01-10T06:00:00Z'))).toBe(false); // 07:00
    expect(inQuietHours(q, at('2026-01-10T12:00:00Z'))).toBe(false);
    expect(inQuietHours({ start: '09:00', end: '17:00', timeZone: 'UTC' }, at('2026-01-10T16:59:00Z'))).toBe(true);
    expect(inQuietHours(null, at('2026-01-10T12:00:00Z'))).toBe(false);
  });
});
