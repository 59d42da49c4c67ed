import { api } from '../../store/api';
import type { AccessTokenAnswer, GoogleLinkStart } from '@parley/contract/auth';
import type {
  ChangePasswordBody,
  FactorsOverview,
  PasskeyInfo,
  RecoveryCodes,
  SecondFactorAnswer,
  TotpSetup,
} from '@parley/contract/factors';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { setCredentials } from './authSlice';

const FACTORS = 'Settings' as const;
const factorsTag = { type: FACTORS, id: 'FACTORS' };

/** The answer to a password: a session, or the second step it needs first. */
export type LoginAnswer = AccessTokenAnswer | SecondFactorAnswer;

/** POST /api/auth/password: the new password and one proof (see changePasswordSchema). */
export type ChangePasswordRequest = Omit<ChangePasswordBody, 'passkey'> & { passkey?: AuthenticationResponseJSON };

type SecondFactorBody = { pending: string } & ({ code: string } | { recoveryCode: string } | { passkey: AuthenticationResponseJSON });

/** Passkeys, two-factor and recovery codes (api/src/auth/factors). */
export const factorsApi = api.injectEndpoints({
  endpoints: (builder) => ({
    getFactors: builder.query<FactorsOverview, void>({ query: () => '/api/auth/factors', providesTags: [factorsTag] }),
    passkeyRegistrationOptions: builder.mutation<PublicKeyCredentialCreationOptionsJSON, void>({
      query: () => ({ url: '/api/auth/passkeys/options', method: 'POST', body: {} }),
    }),
    registerPasskey: builder.mutation<PasskeyInfo, { name: string; response: RegistrationResponseJSON }>({
      query: (body) => ({ url: '/api/auth/passkeys', method: 'POST', body }),
      invalidatesTags: [factorsTag],
    }),
    renamePasskey: builder.mutation<PasskeyInfo, { id: string; name: string }>({
      query: ({ id, name }) => ({ url: `/api/auth/passkeys/${encodeURIComponent(id)}`, method: 'PATCH', body: { name } }),
      invalidatesTags: [factorsTag],
    }),
    removePasskey: builder.mutation<null, string>({
      query: (id) => ({ url: `/api/auth/passkeys/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [factorsTag],
    }),
    totpSetup: builder.mutation<TotpSetup, void>({ query: () => ({ url: '/api/auth/totp/setup', method: 'POST', body: {} }) }),
    totpConfirm: builder.mutation<RecoveryCodes, string>({
      query: (code) => ({ url: '/api/auth/totp/confirm', method: 'POST', body: { code } }),
      invalidatesTags: [factorsTag],
    }),
    passkeyTwoFactor: builder.mutation<RecoveryCodes, void>({
      query: () => ({ url: '/api/auth/two-factor/passkey', method: 'POST', body: {} }),
      invalidatesTags: [factorsTag],
    }),
    twoFactorOff: builder.mutation<null, { code: string } | { recoveryCode: string }>({
      query: (body) => ({ url: '/api/auth/two-factor/off', method: 'POST', body }),
      invalidatesTags: [factorsTag],
    }),
    regenerateRecoveryCodes: builder.mutation<RecoveryCodes, void>({
      query: () => ({ url: '/api/auth/recovery-codes', method: 'POST', body: {} }),
      invalidatesTags: [factorsTag],
    }),
    /** Signed in, proving it is the owner with a passkey (before a new password). */
    passkeyConfirmOptions: builder.mutation<PublicKeyCredentialRequestOptionsJSON, void>({
      query: () => ({ url: '/api/auth/passkeys/confirm-options', method: 'POST', body: {} }),
    }),
    changePassword: builder.mutation<null, ChangePasswordRequest>({
      query: (body) => ({ url: '/api/auth/password', method: 'POST', body }),
      // A recovery code spent, a first password set: the overview changes.
      invalidatesTags: [factorsTag],
    }),
    // Signed out: the sign-in page's passkey and second step, and a reset with a recovery code.
    passkeyLoginOptions: builder.mutation<PublicKeyCredentialRequestOptionsJSON, void>({
      query: () => ({ url: '/api/auth/passkey/options', method: 'POST', body: {} }),
    }),
    passkeyLogin: builder.mutation<AccessTokenAnswer, { response: AuthenticationResponseJSON; fingerprint?: string }>({
      query: (body) => ({ url: '/api/auth/passkey', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(setCredentials(data));
      },
    }),
    /** Back from Google with two-factor on: the second step the server kept in a cookie. */
    resumeSecondFactor: builder.mutation<SecondFactorAnswer, void>({
      query: () => ({ url: '/api/auth/second-factor/resume', method: 'POST', body: {} }),
    }),
    secondFactorOptions: builder.mutation<PublicKeyCredentialRequestOptionsJSON, string>({
      query: (pending) => ({ url: '/api/auth/second-factor/options', method: 'POST', body: { pending } }),
    }),
    secondFactor: builder.mutation<AccessTokenAnswer, SecondFactorBody>({
      query: (body) => ({ url: '/api/auth/second-factor', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(setCredentials(data));
      },
    }),
    /** The Google address to go to: the round trip comes back to Settings with `?google=…`. */
    startGoogleLink: builder.mutation<GoogleLinkStart, void>({
      query: () => ({ url: '/api/auth/google/link', method: 'POST', body: {} }),
    }),
    unlinkGoogle: builder.mutation<null, void>({
      query: () => ({ url: '/api/auth/google/link', method: 'DELETE' }),
      invalidatesTags: [factorsTag],
    }),
    recover: builder.mutation<null, { username: string; recoveryCode: string; password: string; altcha?: string }>({
      query: (body) => ({ url: '/api/auth/recover', method: 'POST', body }),
    }),
  }),
});

export const {
  useGetFactorsQuery,
  usePasskeyRegistrationOptionsMutation,
  useRegisterPasskeyMutation,
  useRemovePasskeyMutation,
  useRenamePasskeyMutation,
  useTotpSetupMutation,
  useTotpConfirmMutation,
  usePasskeyTwoFactorMutation,
  useTwoFactorOffMutation,
  useRegenerateRecoveryCodesMutation,
  useChangePasswordMutation,
  usePasskeyLoginOptionsMutation,
  usePasskeyLoginMutation,
  useSecondFactorOptionsMutation,
  useSecondFactorMutation,
  useRecoverMutation,
  useStartGoogleLinkMutation,
  useUnlinkGoogleMutation,
} = factorsApi;
