import type {
  BillingPlans,
  BillingStatus,
  CheckoutAnswer,
  CheckoutRequest,
  CheckoutStatus,
  DonationRequest,
  NameStyle,
  NameStyleRequest,
  PublicThanksAnswer,
} from '@parley/contract/billing';
import { i18n } from '@lingui/core';
import { api } from '../../store/api';

export const billingApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** The tiers with Stripe's prices, or `configured: false` on a server without Stripe keys. */
    billingPlans: builder.query<BillingPlans, void>({ query: () => '/api/billing/plans' }),
    billingStatus: builder.query<BillingStatus, void>({ query: () => '/api/billing/status', providesTags: ['Subscription'] }),
    startCheckout: builder.mutation<CheckoutAnswer, CheckoutRequest>({
      query: (body) => ({ url: '/api/billing/checkout', method: 'POST', body }),
    }),
    startDonation: builder.mutation<CheckoutAnswer, DonationRequest>({
      query: (body) => ({ url: '/api/billing/donation', method: 'POST', body }),
    }),
    openPortal: builder.mutation<CheckoutAnswer, { attemptId: string }>({
      query: (body) => ({ url: '/api/billing/portal', method: 'POST', body }),
    }),
    /** Premium only: the server refuses a free member (403). Names shown anywhere are refetched. */
    setNameStyle: builder.mutation<NameStyle, NameStyleRequest>({
      query: (body) => ({ url: '/api/billing/name-style', method: 'PUT', body }),
      invalidatesTags: ['Subscription', 'User'],
    }),
    withdrawPublicThanks: builder.mutation<PublicThanksAnswer, void>({
      query: () => ({ url: '/api/billing/public-thanks', method: 'DELETE' }),
      invalidatesTags: ['Subscription', 'User'],
    }),
    checkoutStatus: builder.query<CheckoutStatus, string>({
      query: (id) => `/api/billing/checkout/${encodeURIComponent(id)}`,
      providesTags: ['Subscription'],
    }),
  }),
});

export const {
  useBillingPlansQuery,
  useBillingStatusQuery,
  useStartCheckoutMutation,
  useStartDonationMutation,
  useOpenPortalMutation,
  useCheckoutStatusQuery,
  useSetNameStyleMutation,
  useWithdrawPublicThanksMutation,
} = billingApi;

/** The interface language's number formats (the pseudo-locale reads numbers as English does). */
const numberLocale = () => (i18n.locale === 'en-XA' ? 'en' : i18n.locale || 'en');

/** A price as people read it in the interface language: "$4.99", "4,99 $US", "US$4.99". */
export function formatPrice(minorUnits: number, currency: string): string {
  const format = new Intl.NumberFormat(numberLocale(), { style: 'currency', currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minorUnits / 10 ** digits);
}

/** A whole amount of a currency in the interface language: "$5". */
export const formatWhole = (amount: number, currency: string) =>
  new Intl.NumberFormat(numberLocale(), { style: 'currency', currency: currency.toUpperCase(), maximumFractionDigits: 0 }).format(amount);
