import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { notificationEvents, PUSH_TTL_S, type NotificationPage } from '@parley/contract/notifications';
import { tokenUserOf } from '../db/accounts.ts';
import { next, refreshCookieHeader, silent, socketClients } from '../testing/socketClients.ts';
import { pushSubscriptions } from '../db/schema.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { member, type Member } from '../testing/people.ts';
import { startPushService, type PushService } from '../testing/pushService.ts';
import { endpointAllowed, pushAgent } from './endpoints.ts';
import { isFetchableAddress } from '../platform/address.ts';
import { PUSH_FAILING_FOR_MS, PUSH_FAILURES_BEFORE_DROP } from './push.ts';
import { levelUp, said } from '../testing/words.ts';

describe('Web Push through a local push service', () => {
  let server: TestServer;
  let push: PushService;
  const clients = socketClients(() => server);
  beforeAll(async () => {
    push = await startPushService();
    server = await startTestServer({}, { pushTransport: { allowHosts: [push.host], ca: push.ca } });
  });
  afterAll(async () => {
    clients.closeAll();
    await server.close();
    await push.close();
  });

  const subscribe = (m: Member, body: unknown) => m.call('/api/notifications/push/subscriptions', { method: 'POST', json: body });
  const subsOf = (userId: string) => server.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

  it('encrypts each notification for every device of the user; the device decrypts the payload', async () => {
    const ana = await member(server);
    const [phone, laptop] = [push.device(), push.device()];
    expect((await subscribe(ana, phone.subscription)).status).toBe(201);
    expect((await subscribe(ana, laptop.subscription)).status).toBe(201);
    const delivery = await server.notifier.notify(ana.id, {
      kind: 'friendRequest',
      words: said('bob', 'wants to be your friend'),
      link: '/users/bob',
    });
    expect(delivery.push).toEqual({ sent: 2, removed: 0, failed: 0 });
    await push.waitFor((r) => r.filter((x) => x.payload.link === '/users/bob').length === 2);
    const got = push.received.filter((x) => x.payload.link === '/users/bob');
    expect(got.map((g) => g.device).sort()).toEqual([phone.id, laptop.id].sort());
    for (const g of got) {
      expect(g.payload).toEqual({
        notificationId: delivery.notification!.notificationId,
        kind: 'friendRequest',
        title: 'Friend request',
        body: 'bob: wants to be your friend',
        link: '/users/bob',
        tag: `friendRequest:${delivery.notification!.notificationId}`,
      });
      expect(g.headers['content-encoding']).toBe('aes128gcm');
      expect(g.headers.ttl).toBe(String(PUSH_TTL_S));
      expect(g.headers.urgency).toBe('normal');
      expect(g.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
    }
  });

  it('coalesces direct messages per conversation, in the app and on the device', async () => {
    const ana = await member(server);
    const phone = push.device();
    await subscribe(ana, phone.subscription);
    for (const text of ['hi', 'are you there?']) {
      await server.notifier.notify(ana.id, {
        kind: 'directMessage',
        words: said('bob', text),
        link: '/messages/bob',
        coalesceKey: 'dm:bob',
      });
    }
    await push.waitFor((r) => r.filter((x) => x.device === phone.id).length === 2);
    const last = push.received.filter((x) => x.device === phone.id)[1]!;
    expect(last.payload).toMatchObject({ body: 'bob: are you there? (+1 more)', tag: 'dm:bob' });
    expect(last.headers.urgency).toBe('high');
    const page = (await (await ana.call('/api/notifications')).json()) as NotificationPage;
    expect(page.notificationList).toHaveLength(1);
    expect(page.notificationList[0]).toMatchObject({ count: 2, text: 'bob: are you there?', read: false });
    expect(page.unread).toBe(1);
  });

  it("writes each push in its recipient's language, chosen in the app, at the time it is sent", async () => {
    const ana = await member(server);
    const phone = push.device();
    await subscribe(ana, phone.subscription);
    await ana.call('/api/settings', { method: 'PATCH', json: { locale: 'de' } });
    for (const text of ['hallo', 'bist du da?'])
      await server.notifier.notify(ana.id, {
        kind: 'directMessage',
        words: said('bob', text),
        link: '/messages/bob',
        coalesceKey: 'dm:bob',
      });
    await server.notifier.notify(ana.id, { kind: 'levelUp', words: levelUp(7), link: '/missions' });
    await push.waitFor((r) => r.filter((x) => x.device === phone.id).length === 3);
    const [, coalesced, level] = push.received.filter((x) => x.device === phone.id);
    expect(coalesced!.payload).toMatchObject({ title: 'Neue Nachricht', body: 'bob: bist du da? (und 1 weitere)' });
    expect(level!.payload).toMatchObject({ title: 'Level aufgestiegen', body: 'Du hast Level 7 erreicht und Gold verdient.' });
    // Switched to Japanese: the next push is in Japanese, and the stored notice too.
    await ana.call('/api/settings', { method: 'PATCH', json: { locale: 'ja' } });
    await server.notifier.notify(ana.id, { kind: 'levelUp', words: levelUp(8), link: '/missions' });
    await push.waitFor((r) => r.filter((x) => x.device === phone.id).length === 4);
    expect(push.received.filter((x) => x.device === phone.id)[3]!.payload).toMatchObject({
      title: 'レベルアップ',
      body: 'レベル 8 に到達し、ゴールドを獲得しました。',
    });
    const page = (await (await ana.call('/api/notifications')).json()) as NotificationPage;
    expect(page.notificationList[0]!.text).toBe('レベル 8 に到達し、ゴールドを獲得しました。');
  });

  it('deletes a subscription the push service answers 410 (and 404, 403), keeps it on 429', async () => {
    const ana = await member(server);
    const devices = [push.device(), push.device(), push.device(), push.device()];
    for (const d of devices) await subscribe(ana, d.subscription);
    push.answer(devices[0]!, 410);
    push.answer(devices[1]!, 404);
    push.answer(devices[2]!, 403);
    push.answer(devices[3]!, 429);
    const delivery = await server.notifier.notify(ana.id, { kind: 'friendAccepted', words: said('x', 'accepted'), link: '/users/x' });
    expect(delivery.push).toEqual({ sent: 0, removed: 3, failed: 1 });
    expect((await subsOf(ana.id)).map((s) => s.endpoint)).toEqual([devices[3]!.subscription.endpoint]);
  });

  it(`drops a subscription that keeps failing: ${PUSH_FAILURES_BEFORE_DROP} sends in a row over a day; a success in between forgives`, async () => {
    const ana = await member(server);
    const [flaky, dead] = [push.device(), push.device()];
    for (const d of [flaky, dead]) await subscribe(ana, d.subscription);
    const failuresOf = async (d: typeof flaky) =>
      (await subsOf(ana.id)).find((s) => s.endpoint === d.subscription.endpoint)?.failures ?? 'gone';
    const notify = () => server.notifier.notify(ana.id, { kind: 'friendAccepted', words: said('x', 'accepted'), link: '/users/x' });
    push.answer(flaky, 500);
    push.answer(dead, 500);
    for (let i = 0; i < PUSH_FAILURES_BEFORE_DROP - 1; i++) expect((await notify()).push).toEqual({ sent: 0, removed: 0, failed: 2 });
    push.answer(flaky, 201);
    expect((await notify()).push).toEqual({ sent: 1, removed: 0, failed: 1 });
    expect([await failuresOf(flaky), await failuresOf(dead)]).toEqual([0, PUSH_FAILURES_BEFORE_DROP]);
    // Failing in a row, but for less than a day: kept (a push service's outage).
    expect((await notify()).push).toEqual({ sent: 1, removed: 0, failed: 1 });
    // The same after a day of failing: dropped.
    await server.deps.db
      .update(pushSubscriptions)
      .set({ failingSince: new Date(Date.now() - PUSH_FAILING_FOR_MS - 60_000) })
      .where(eq(pushSubscriptions.endpoint, dead.subscription.endpoint));
    expect((await notify()).push).toEqual({ sent: 1, removed: 1, failed: 0 });
    expect((await subsOf(ana.id)).map((s) => s.endpoint)).toEqual([flaky.subscription.endpoint]);
  });

  it('follows preferences, quiet hours, and sends nothing about what the user is looking at', async () => {
    const ana = await member(server);
    const phone = push.device();
    await subscribe(ana, phone.subscription);
    const count = () => push.received.filter((x) => x.device === phone.id).length;
    // Push off for friend requests: stored in the app, not pushed.
    await ana.call('/api/settings', { method: 'PATCH', json: { notifications: { friendRequest: { inApp: true, push: false } } } });
    expect((await server.notifier.notify(ana.id, { kind: 'friendRequest', words: said('a', 'hi'), link: '/users/a' })).push).toBeNull();
    // Quiet all day (a window covering every minute but one): stored, not pushed.
    await ana.call('/api/settings', { method: 'PATCH', json: { quietHours: { start: '00:00', end: '23:59', timeZone: 'UTC' } } });
    const quiet = await server.notifier.notify(ana.id, { kind: 'mention', words: said('b', 'hi'), link: '/groupchat/r1' });
    expect(quiet.notification).not.toBeNull();
    expect(quiet.push).toBeNull();
    await ana.call('/api/settings', { method: 'PATCH', json: { quietHours: null } });
    // A visible page shows the conversation: the message is there, so nothing is stored or pushed.
    const page = await clients.open(tokenUserOf(ana));
    page.emit(notificationEvents.focus, { path: '/messages/bob', visible: true });
    const noNotice = silent(page, notificationEvents.created);
    await new Promise((r) => setTimeout(r, 50));
    const seen = await server.notifier.notify(ana.id, {
      kind: 'directMessage',
      words: said('bob', 'hi'),
      link: '/messages/bob',
      coalesceKey: 'dm:bob',
    });
    expect(seen).toEqual({ notification: null, push: null, skipped: 'looking' });
    expect(await noNotice).toBe(true);
    expect(count()).toBe(0);
    // Looking at a profile is not looking at the conversation: a notice about a link shown is stored read, not pushed.
    page.emit(notificationEvents.focus, { path: '/users/a', visible: true });
    await new Promise((r) => setTimeout(r, 50));
    const shown = await server.notifier.notify(ana.id, { kind: 'friendAccepted', words: said('a', 'accepted'), link: '/users/a' });
    expect(shown.notification?.read).toBe(true);
    expect(shown.push).toBeNull();
    // Hidden (another tab in front): pushed.
    page.emit(notificationEvents.focus, { path: '/messages/bob', visible: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(
      (
        await server.notifier.notify(ana.id, {
          kind: 'directMessage',
          words: said('bob', 'hey'),
          link: '/messages/bob',
          coalesceKey: 'dm:bob',
        })
      ).push?.sent,
    ).toBe(1);
    await push.waitFor(() => count() === 1);
    // A focus report that does not parse is refused on the socket.
    const refused = next<{ event: string; code: string }>(page, 'chat:error');
    page.emit(notificationEvents.focus, { path: 'https://evil.example', visible: true });
    expect(await refused).toMatchObject({ event: notificationEvents.focus, code: 'validation_failed' });
  });

  it('refuses subscriptions to anything but https on a public address (no request forgery through push)', async () => {
    const ana = await member(server);
    const keys = push.device().subscription.keys;
    for (const endpoint of [
      'http://push.example.com/x',
      'https://10.1.2.3/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://localhost/x',
      'https://intranet/x',
    ]) {
      const res = await subscribe(ana, { endpoint, keys });
      expect(res.status, endpoint).toBe(400);
    }
    expect(
      (await subscribe(ana, { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'short', auth: 'x' } })).status,
    ).toBe(400);
    expect(
      (
        await server.api('/api/notifications/push/subscriptions', {
          method: 'POST',
          json: { endpoint: 'https://fcm.googleapis.com/x', keys },
        })
      ).status,
    ).toBe(401);
  });

  it('unsubscribes a device (and only its own user can)', async () => {
    const [ana, eve] = [await member(server), await member(server)];
    const phone = push.device();
    await subscribe(ana, phone.subscription);
    const body = { endpoint: phone.subscription.endpoint };
    expect((await eve.call('/api/notifications/push/unsubscribe', { method: 'POST', json: body })).status).toBe(404);
    expect(await subsOf(ana.id)).toHaveLength(1);
    expect((await ana.call('/api/notifications/push/unsubscribe', { method: 'POST', json: body })).status).toBe(204);
    expect(await subsOf(ana.id)).toHaveLength(0);
  });

  it("a device's subscription ends with its sign-in: signing out, signing out everywhere, a new password elsewhere", async () => {
    const password = 'a long enough password';
    const ana = await member(server, { password });
    const signIn = async () => {
      const res = await server.api('/api/auth/login', { method: 'POST', json: { username: ana.username, password } });
      expect(res.status).toBe(200);
      const { accessToken } = (await res.json()) as { accessToken: string };
      const device = push.device();
      const headers = { authorization: `Bearer ${accessToken}` };
      const sub = await server.api('/api/notifications/push/subscriptions', { method: 'POST', json: device.subscription, headers });
      expect(sub.status).toBe(201);
      return { headers, cookie: refreshCookieHeader(res)!, endpoint: device.subscription.endpoint };
    };
    const endpoints = async () => (await subsOf(ana.id)).map((s) => s.endpoint).sort();
    // Signed out on a page that could not unsubscribe first: the server drops that device only.
    const [phone, laptop, tablet] = [await signIn(), await signIn(), await signIn()];
    expect(await endpoints()).toEqual([phone.endpoint, laptop.endpoint, tablet.endpoint].sort());
    expect((await server.api('/api/auth/logout', { method: 'POST', headers: { cookie: phone.cookie } })).status).toBe(204);
    expect(await endpoints()).toEqual([laptop.endpoint, tablet.endpoint].sort());
    // A new password keeps the device of the sign-in that changed it.
    const changed = await server.api('/api/auth/password', {
      method: 'POST',
      headers: laptop.headers,
      json: { currentPassword: password, newPassword: 'another long password' },
    });
    expect(changed.status).toBe(204);
    expect(await endpoints()).toEqual([laptop.endpoint]);
    // Sign out everywhere: every sign-in ends, this one too, and no device is left.
    expect((await server.api('/api/settings/sign-out-everywhere', { method: 'POST', headers: laptop.headers })).status).toBe(204);
    expect(await endpoints()).toEqual([]);
    expect((await server.api('/api/profile', { headers: laptop.headers })).status).toBe(401);
    expect((await server.api('/api/auth/refresh', { headers: { cookie: laptop.cookie } })).status).toBe(401);
  });

  it('answers the VAPID public key the browser subscribes with', async () => {
    const res = await server.api('/api/notifications/push/key');
    expect(await res.json()).toEqual({ publicKey: server.deps.secrets.vapid.publicKey });
  });
});

describe('a server without the test transport', () => {
  it('refuses the local stand-in like any private address', async () => {
    const push = await startPushService();
    const server = await startTestServer();
    try {
      const ana = await member(server);
      const res = await ana.call('/api/notifications/push/subscriptions', { method: 'POST', json: push.device().subscription });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('push_endpoint_refused');
    } finally {
      await server.close();
      await push.close();
    }
  });
});

describe('push endpoint checks', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['172.20.1.1', false],
    ['192.168.1.10', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    // IPv4 hidden in IPv6: IPv4-compatible, IPv4-mapped in every spelling, 6to4, NAT64.
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::8.8.8.8', false],
    ['0:0:0:0:0:ffff:7f00:1', false],
    ['::ffff:0:10.0.0.1', false],
    ['2002:7f00:1::1', false],
    ['2002:a9fe:a9fe::', false],
    ['64:ff9b::10.0.0.1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b:1::808:808', false],
    // Teredo, discard, documentation.
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['100::1', false],
    ['2001:db8::1', false],
    ['8.8.8.8', true],
    ['142.250.74.106', true],
    ['2a00:1450:4007:80c::200a', true],
    ['::ffff:8.8.8.8', true],
    // Forms that carry an IPv4 address are refused even when it is public: a push service has a plain address.
    ['2002:808:808::1', false],
    ['64:ff9b::8.8.8.8', false],
  ])('%s may be pushed to: %s', (ip, expected) => {
    expect(isFetchableAddress(ip)).toBe(expected);
  });

  it('allows https names, refuses http, credentials, private literals and single-label hosts', () => {
    expect(endpointAllowed('https://fcm.googleapis.com/fcm/send/x')).toBe(true);
    expect(endpointAllowed('https://updates.push.services.mozilla.com/wpush/v2/x')).toBe(true);
    for (const e of [
      'http://fcm.googleapis.com/x',
      'https://user:pw@fcm.googleapis.com/x',
      'https://127.0.0.1/x',
      'https://[::ffff:7f00:1]/x',
      'https://localhost/x',
      'https://a.localhost/x',
      'https://router/x',
      'not a url',
      'https://[::127.0.0.1]/x',
      'https://[::ffff:10.0.0.1]/x',
      'https://[2002:7f00:1::]/x',
      'https://[64:ff9b::a9fe:a9fe]/x',
      'https://[64:ff9b:1::1]/x',
      'https://fcm.googleapis.com./x',
      'https://router./x',
      'https://printer.local/x',
      'https://metadata.google.internal/x',
      'https://a..b.example.com/x',
    ])
      expect(endpointAllowed(e), e).toBe(false);
    expect(endpointAllowed('https://127.0.0.1:9/x', { allowHosts: ['127.0.0.1'] })).toBe(true);
  });

  it('refuses at connection time a name that resolves to a private address (DNS rebinding)', async () => {
    const agent = pushAgent();
    const err = await new Promise<NodeJS.ErrnoException>((resolve) => {
      https
        .get({ host: 'localhost', port: 9, path: '/', agent }, () => resolve(new Error('connected') as NodeJS.ErrnoException))
        .on('error', resolve);
    });
    agent.destroy();
    expect(err.code).toBe('EPUSHPRIVATE');
  });
});
