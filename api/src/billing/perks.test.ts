import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_ERR, monthlyGoldLabel, PERKS, type BillingStatus, type NameStyle } from '@parley/contract/billing';
import type { MissionOverview } from '@parley/contract/missions';
import type { RecentPartner, UserProfile } from '@parley/contract/people';
import { insertAccount } from '../db/accounts.ts';
import { encounters } from '../db/schema.ts';
import { billingRig } from '../testing/billingRig.ts';
import { goldOf } from '../testing/members.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { startStripeStandIn, subscriptionObject } from '../testing/stripeStandIn.ts';

const SECRET = 'whsec_test_perks';
const stripeEnv = (base: string) => ({
  STRIPE_SECRET_KEY: 'sk_test_standin',
  STRIPE_WEBHOOK_SECRET: SECRET,
  STRIPE_API_BASE: base,
  JWT_SECRET: 'a-test-signing-key-shared-by-both-processes',
});
const HOUR_MS = 3600_000;

describe('premium perks switch on and off with the webhooks', () => {
  let server: TestServer;
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  const rig = billingRig(() => stripe, SECRET);
  const deliver = (type: string, object: unknown, id?: string, to: TestServer = server) => rig.deliver(to, type, object, id);

  beforeAll(async () => {
    stripe = await startStripeStandIn([
      { lookupKey: 'parley_plus_monthly', amount: 499 },
      { lookupKey: 'parley_pro_yearly', amount: 9_599 },
    ]);
    server = await startTestServer(stripeEnv(stripe.base));
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  /** A member whose checkout the webhook has confirmed: premium now. */
  async function premium(lookupKey = 'parley_plus_monthly') {
    const s = await rig.subscriber(server, lookupKey);
    stripe.setSubscription(s.sub);
    expect((await deliver('checkout.session.completed', rig.completed(s.sessionId, s.sub))).res.status).toBe(200);
    return s;
  }
  const overview = async (s: { call: (p: string) => Promise<Response> }) =>
    (await (await s.call('/api/missions')).json()) as MissionOverview;
  const profileOf = async (viewer: { call: (p: string) => Promise<Response> }, username: string) =>
    (await (await viewer.call(`/api/users/${username}`)).json()) as UserProfile;

  describe('monthly gold', () => {
    it('credits a paid invoice once, however often and in whatever form it arrives, and shows it in recent rewards', async () => {
      const s = await premium();
      const before = await goldOf(server, s.user.userId);
      const paid = rig.invoice(`in_${randomUUID()}`, s.sub);
      const first = await deliver('invoice.paid', paid);
      expect(first.body.duplicate).toBe(false);
      expect(await goldOf(server, s.user.userId)).toBe(before + PERKS.plus.monthlyGold);
      // The same event again, and another event about the same invoice: nothing more.
      expect((await deliver('invoice.paid', paid, first.id)).body.duplicate).toBe(true);
      expect((await deliver('invoice.paid', paid)).body.duplicate).toBe(false);
      expect(await goldOf(server, s.user.userId)).toBe(before + PERKS.plus.monthlyGold);
      const rewards = (await overview(s)).recentRewards;
      expect(rewards.filter((r) => r.label === monthlyGoldLabel('plus'))).toEqual([
        expect.objectContaining({ gold: PERKS.plus.monthlyGold, xp: 0 }),
      ]);
      // Next month's invoice is another grant.
      await deliver('invoice.paid', rig.invoice(`in_${randomUUID()}`, s.sub));
      expect(await goldOf(server, s.user.userId)).toBe(before + 2 * PERKS.plus.monthlyGold);
    });

    it('grants a yearly invoice twelve months of its tier', async () => {
      const s = await premium('parley_pro_yearly');
      await deliver('invoice.paid', rig.invoice(`in_${randomUUID()}`, s.sub));
      expect(await goldOf(server, s.user.userId)).toBe(12 * PERKS.pro.monthlyGold);
    });

    it('gives nothing for the invoice of a subscription that no longer entitles', async () => {
      const s = await premium();
      stripe.setSubscription({ ...s.sub, status: 'canceled' });
      await deliver('customer.subscription.deleted', subscriptionObject({ ...s.sub, status: 'canceled' }));
      await deliver('invoice.paid', rig.invoice(`in_${randomUUID()}`, s.sub));
      expect(await goldOf(server, s.user.userId)).toBe(0);
    });

    it('credits once when two processes receive events about the same invoice at the same time', async (ctx) => {
      if (!process.env.DATABASE_URL) ctx.skip();
      const other = await startTestServer({ ...stripeEnv(stripe.base), DATABASE_URL: server.deps.cfg.DATABASE_URL! });
      try {
        const s = await premium();
        const paid = rig.invoice(`in_${randomUUID()}`, s.sub);
        const answers = await Promise.all([deliver('invoice.paid', paid), deliver('invoice.paid', paid, undefined, other)]);
        expect(answers.map((a) => a.res.status)).toEqual([200, 200]);
        expect(await goldOf(server, s.user.userId)).toBe(PERKS.plus.monthlyGold);
      } finally {
        await other.close();
      }
    });
  });

  describe('name colour and badge', () => {
    it('refuses a free member with a clear message, and checks the colour', async () => {
      const s = await rig.subscriber(server);
      const res = await s.call('/api/billing/name-style', { method: 'PUT', json: { nameColour: 'teal' } });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(BILLING_ERR.nameColourPremium);
      const p = await premium();
      for (const bad of [{ nameColour: '#ff0000' }, { nameColour: 'teal', userId: s.user.userId }, {}]) {
        const r = await p.call('/api/billing/name-style', { method: 'PUT', json: bad });
        expect(r.status).toBe(400);
      }
    });

    it('shows a premium member’s colour and badge on their card, and drops both when the subscription ends', async () => {
      const s = await premium();
      const viewer = await rig.subscriber(server);
      expect((await profileOf(viewer, s.user.username)).nameStyle).toEqual({ badge: true, nameColour: null });
      const set = await s.call('/api/billing/name-style', { method: 'PUT', json: { nameColour: 'violet' } });
      expect(set.status).toBe(200);
      expect((await set.json()) as NameStyle).toEqual({ badge: true, nameColour: 'violet' });
      expect((await profileOf(viewer, s.user.username)).nameStyle).toEqual({ badge: true, nameColour: 'violet' });
      expect(((await (await s.call('/api/billing/status')).json()) as BillingStatus).nameColour).toBe('violet');

      stripe.setSubscription({ ...s.sub, status: 'canceled' });
      await deliver('customer.subscription.deleted', subscriptionObject({ ...s.sub, status: 'canceled' }));
      expect((await profileOf(viewer, s.user.username)).nameStyle).toEqual({ badge: false, nameColour: null });
      // The token still says Plus; the server reads the tier as stored now.
      expect((await s.call('/api/billing/name-style', { method: 'PUT', json: { nameColour: 'teal' } })).status).toBe(403);
    });
  });

  describe('public thank-you for donors', () => {
    async function donate(s: Awaited<ReturnType<typeof rig.subscriber>>, publicThanks: boolean) {
      const res = await s.call('/api/billing/donation', { method: 'POST', json: { amount: 5, publicThanks, attemptId: randomUUID() } });
      expect(res.status).toBe(200);
      const id = /cs_test_\d+/.exec(((await res.json()) as { url: string }).url)![0];
      return {
        id,
        confirm: () =>
          deliver('checkout.session.completed', {
            id,
            object: 'checkout.session',
            mode: 'payment',
            payment_status: 'paid',
            payment_intent: `pi_${id}`,
          }),
      };
    }

    it('appears once the webhook confirms the donation, and only the donor can remove it', async () => {
      const donor = await rig.subscriber(server);
      const stranger = await rig.subscriber(server);
      const d = await donate(donor, true);
      expect((await profileOf(stranger, donor.user.username)).thankedDonor).toBe(false);
      await d.confirm();
      expect((await profileOf(stranger, donor.user.username)).thankedDonor).toBe(true);
      expect(((await (await donor.call('/api/billing/status')).json()) as BillingStatus).thankedDonor).toBe(true);
      // Someone else removing "their" thank-you touches only their own donations.
      expect((await stranger.call('/api/billing/public-thanks', { method: 'DELETE' })).status).toBe(200);
      expect((await profileOf(stranger, donor.user.username)).thankedDonor).toBe(true);
      const removed = await donor.call('/api/billing/public-thanks', { method: 'DELETE' });
      expect(await removed.json()).toEqual({ thankedDonor: false });
      expect((await profileOf(stranger, donor.user.username)).thankedDonor).toBe(false);
    });

    it('is never shown for a donation that asked not to be thanked in public', async () => {
      const donor = await rig.subscriber(server);
      await (await donate(donor, false)).confirm();
      expect((await profileOf(donor, donor.user.username)).thankedDonor).toBe(false);
    });
  });

  describe('recent partners', () => {
    it('lists as many past partners, as far back, as the member’s tier allows', async () => {
      const s = await rig.subscriber(server);
      const now = Date.now();
      const partners = [];
      // More than the free tier lists in its window, and some older than it reaches.
      const count = PERKS['free tier'].recentPartners + 5;
      for (let i = 0; i < count + 3; i++) {
        const p = await insertAccount(server.deps.db, {
          username: `rp${randomUUID().slice(0, 12).replace(/-/g, '')}`,
          passwordHash: 'x',
          age: 30,
          gender: 'female',
          isVerified: true,
        });
        const hoursAgo = i < count ? 1 + i / 60 : PERKS['free tier'].recentPartnerHours + 2;
        partners.push({
          roomId: `r-${randomUUID()}`,
          userId: s.user.userId,
          partnerId: p.id,
          kind: 'textChat' as const,
          metAt: new Date(now - hoursAgo * HOUR_MS),
        });
      }
      await server.deps.db.insert(encounters).values(partners);
      const recent = async () => (await (await s.call('/api/friends/recent')).json()) as RecentPartner[];
      expect(await recent()).toHaveLength(PERKS['free tier'].recentPartners);

      stripe.setSubscription(s.sub);
      await deliver('checkout.session.completed', rig.completed(s.sessionId, s.sub));
      const longer = await recent();
      expect(longer).toHaveLength(count + 3);
      expect(longer.every((p) => p.nameStyle.badge === false)).toBe(true);
    });
  });
});
