import { z } from 'zod';
import { DEFAULT_PREMIUM_TIER } from './constants.ts';
import { GROUP_CAPACITY_DEFAULT, GROUP_CAPACITY_MAX, GROUP_ROOMS_PER_OWNER } from './groups.ts';

/** The paid tiers; `premiumUser` is one of these or the free tier. */
export const PREMIUM_TIERS = ['plus', 'pro'] as const;
export type PremiumTier = (typeof PREMIUM_TIERS)[number];
export type Tier = PremiumTier | typeof DEFAULT_PREMIUM_TIER;
export const BILLING_CYCLES = ['monthly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/**
 * The Stripe price lookup key of a tier and cycle: operators create four recurring prices with
 * these keys, and amounts come from Stripe, never from this code.
 */
export const priceLookupKey = (tier: PremiumTier, cycle: BillingCycle) => `parley_${tier}_${cycle}`;

/**
 * What each tier allows, enforced by the server where the feature exists. Conveniences and
 * cosmetics only: filters, reports and blocks are the same for everyone.
 */
export type Perks = {
  /** A badge beside the name and a name colour. */
  badge: boolean;
  /** Group rooms one person may own at once, and how many people each may hold. */
  ownedGroupRooms: number;
  groupRoomCapacity: number;
  /** Past partners kept to send a friend request to, and for how many hours. */
  recentPartners: number;
  recentPartnerHours: number;
  /** Gold granted with each paid month of the subscription (a yearly invoice grants twelve months'). */
  monthlyGold: number;
  /** Streak freezes one may hold. */
  streakFreezes: number;
  /** Uploading one's own custom emoji. */
  customEmojiUpload: boolean;
};

export const PERKS: Record<Tier, Perks> = {
  'free tier': {
    badge: false,
    ownedGroupRooms: GROUP_ROOMS_PER_OWNER,
    groupRoomCapacity: GROUP_CAPACITY_DEFAULT,
    recentPartners: 20,
    recentPartnerHours: 24,
    monthlyGold: 0,
    streakFreezes: 2,
    customEmojiUpload: false,
  },
  plus: {
    badge: true,
    ownedGroupRooms: 2 * GROUP_ROOMS_PER_OWNER,
    groupRoomCapacity: 500,
    recentPartners: 50,
    recentPartnerHours: 72,
    monthlyGold: 500,
    streakFreezes: 3,
    customEmojiUpload: true,
  },
  pro: {
    badge: true,
    ownedGroupRooms: 4 * GROUP_ROOMS_PER_OWNER,
    groupRoomCapacity: GROUP_CAPACITY_MAX,
    recentPartners: 100,
    recentPartnerHours: 168,
    monthlyGold: 1500,
    streakFreezes: 3,
    customEmojiUpload: true,
  },
};

export function tierOf(premiumUser: string): Tier {
  return (PREMIUM_TIERS as readonly string[]).includes(premiumUser) ? (premiumUser as PremiumTier) : DEFAULT_PREMIUM_TIER;
}

export const perksOf = (premiumUser: string): Perks => PERKS[tierOf(premiumUser)];

/**
 * The name colours a premium member may choose. Each reads at a contrast of at least 4.5:1 on the
 * light surfaces names are shown on (message bubbles, cards, lists); billing.test.ts checks it.
 */
export const NAME_COLOURS = {
  crimson: '#b91c1c',
  ember: '#c2410c',
  amber: '#92400e',
  forest: '#166534',
  teal: '#0f766e',
  ocean: '#1d4ed8',
  violet: '#6d28d9',
  rose: '#be185d',
} as const;
export type NameColour = keyof typeof NAME_COLOURS;
export const NAME_COLOUR_IDS = Object.keys(NAME_COLOURS) as [NameColour, ...NameColour[]];
/** The surfaces a coloured name is drawn on (white, slate-50, slate-100). */
export const NAME_SURFACES = ['#ffffff', '#f8fafc', '#f1f5f9'] as const;

/** PUT /api/billing/name-style: a colour from the palette, or null for the default. */
export const nameStyleRequestSchema = z.strictObject({
  nameColour: z.enum(NAME_COLOUR_IDS, { message: `nameColour must be one of ${NAME_COLOUR_IDS.join(', ')}, or null` }).nullable(),
});
export type NameStyleRequest = z.infer<typeof nameStyleRequestSchema>;

/** How a person's name is drawn: a premium member's badge and chosen colour; plain for everyone else. */
export type NameStyle = { badge: boolean; nameColour: NameColour | null };

/** The style shown for a stored tier and colour: a colour kept from a past subscription is not shown. */
export function nameStyleOf(premiumUser: string, nameColour: string | null | undefined): NameStyle {
  const badge = perksOf(premiumUser).badge;
  const valid = nameColour !== null && nameColour !== undefined && Object.hasOwn(NAME_COLOURS, nameColour);
  return { badge, nameColour: badge && valid ? (nameColour as NameColour) : null };
}

/** DELETE /api/billing/public-thanks answers this; profiles show `thankedDonor`. */
export type PublicThanksAnswer = { thankedDonor: boolean };

/** Days a subscription whose renewal failed keeps its perks while Stripe retries the payment. */
export const PAYMENT_GRACE_DAYS = 3;

/** Donations, in whole units of the configured currency. */
export const DONATION_MIN = 1;
export const DONATION_MAX = 1000;

/** One click's id: a retried request reuses it, so Stripe creates one session for it (idempotency). */
const attemptId = z.uuid({ message: 'attemptId must be a UUID' });

export const checkoutRequestSchema = z.strictObject({
  tier: z.enum(PREMIUM_TIERS, { message: `tier must be one of ${PREMIUM_TIERS.join(', ')}` }),
  cycle: z.enum(BILLING_CYCLES, { message: `cycle must be one of ${BILLING_CYCLES.join(', ')}` }),
  attemptId,
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

export const donationRequestSchema = z.strictObject({
  amount: z
    .number({ message: 'amount must be a number' })
    .int('amount must be a whole number')
    .min(DONATION_MIN, `amount must be at least ${DONATION_MIN}`)
    .max(DONATION_MAX, `amount must be at most ${DONATION_MAX}`),
  /** Shows a thank-you on the donor's public profile. */
  publicThanks: z.boolean(),
  attemptId,
});
export type DonationRequest = z.infer<typeof donationRequestSchema>;

export const checkoutSessionIdSchema = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, 'not a Checkout session id');

/** A price as Stripe holds it, for the tiers page. */
export type PlanPrice = { tier: PremiumTier; cycle: BillingCycle; amount: number; currency: string };

export type BillingPlans = { configured: false } | { configured: true; prices: PlanPrice[]; donationCurrency: string };

/** The spec's subscription fields, as the signed-in user's own billing answer. */
export type BillingStatus = {
  configured: boolean;
  premiumUser: Tier;
  billingCycle: BillingCycle | null;
  /** True unless the subscription was cancelled (it then ends at `periodEnd`). */
  activeSubscription: boolean;
  cancelledSubscription: string | null;
  periodEnd: string | null;
  /** Set while a failed renewal is retried: perks end then unless a payment succeeds. */
  graceUntil: string | null;
  perks: Perks;
  /** The name colour chosen (kept while free, shown only while premium). */
  nameColour: NameColour | null;
  /** A donation of theirs shows a public thank-you on their profile. */
  thankedDonor: boolean;
};

export type CheckoutAnswer = { url: string };

/** What /payment/success shows: only what a verified webhook has confirmed. */
export type CheckoutStatus =
  | { id: string; state: 'confirming' }
  | { id: string; state: 'expired' }
  | { id: string; state: 'complete'; kind: 'subscription'; tier: PremiumTier; cycle: BillingCycle }
  | { id: string; state: 'complete'; kind: 'donation'; amount: number; currency: string };

export const billingEvents = {
  /** Server → a user's sockets: their entitlements changed; take a fresh access token. */
  entitlements: 'billing:entitlements',
} as const;
export type EntitlementsChanged = { premiumUser: Tier };

export const BILLING_ERR = {
  notConfigured: 'Payments are not configured on this server.',
  alreadySubscribed: 'You already have a subscription. Change or cancel it from “Manage subscription”.',
  noSubscription: 'You have no subscription to manage yet.',
  priceMissing: 'This plan is not available right now. Please try again later.',
  badSignature: 'Webhook signature verification failed',
  stripeUnavailable: 'The payment provider could not be reached. Please try again in a moment.',
  rateLimited: 'Too many payment requests. Please wait a minute and try again.',
  nameColourPremium: 'Name colours are a premium perk. Choose a Plus or Pro plan on the Premium page to pick one.',
} as const;

/** The label of a monthly gold grant in the member's recent rewards. */
export const monthlyGoldLabel = (tier: PremiumTier) => `${tier === 'plus' ? 'Plus' : 'Pro'} membership: monthly gold`;
