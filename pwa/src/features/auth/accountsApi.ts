import { api } from '../../store/api';
import type { AccessTokenAnswer } from '@parley/contract/auth';
import type { AccountEmail, ResetConfirmBody, ResetRequestBody, SignInView, UsernameStatus } from '@parley/contract/accounts';
import { setCredentials } from './authSlice';

const EMAIL = { type: 'User' as const, id: 'EMAIL' };
const SIGN_INS = { type: 'User' as const, id: 'SIGN_INS' };
const USERNAME = { type: 'User' as const, id: 'USERNAME' };

/** The account's own security (api/src/auth/accounts.ts): email, password reset, devices, username. */
export const accountsApi = api.injectEndpoints({
  endpoints: (builder) => ({
    getAccountEmail: builder.query<AccountEmail, void>({ query: () => '/api/account/email', providesTags: [EMAIL] }),
    setAccountEmail: builder.mutation<AccountEmail, { email: string }>({
      query: (body) => ({ url: '/api/account/email', method: 'PUT', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(accountsApi.util.upsertQueryData('getAccountEmail', undefined, data));
      },
    }),
    removeAccountEmail: builder.mutation<AccountEmail, void>({
      query: () => ({ url: '/api/account/email', method: 'DELETE' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(accountsApi.util.upsertQueryData('getAccountEmail', undefined, data));
      },
    }),
    verifyEmail: builder.mutation<null, { token: string }>({
      query: (body) => ({ url: '/api/auth/email/verify', method: 'POST', body }),
      invalidatesTags: [EMAIL],
    }),
    requestPasswordReset: builder.mutation<{ message: string }, ResetRequestBody>({
      query: (body) => ({ url: '/api/auth/password-reset', method: 'POST', body }),
    }),
    confirmPasswordReset: builder.mutation<null, ResetConfirmBody>({
      query: (body) => ({ url: '/api/auth/password-reset/confirm', method: 'POST', body }),
    }),
    getSignIns: builder.query<SignInView[], void>({ query: () => '/api/account/sign-ins', providesTags: [SIGN_INS] }),
    signOutSignIn: builder.mutation<null, string>({
      query: (id) => ({ url: `/api/account/sign-ins/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [SIGN_INS],
    }),
    signOutOtherSignIns: builder.mutation<null, void>({
      query: () => ({ url: '/api/account/sign-ins/sign-out-others', method: 'POST' }),
      invalidatesTags: [SIGN_INS],
    }),
    getUsernameStatus: builder.query<UsernameStatus, void>({ query: () => '/api/account/username', providesTags: [USERNAME] }),
    changeUsername: builder.mutation<AccessTokenAnswer, { username: string }>({
      query: (body) => ({ url: '/api/account/username', method: 'POST', body }),
      // The name is part of the access token: the new one says it everywhere at once.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(setCredentials(data));
      },
      invalidatesTags: [USERNAME, 'Profile'],
    }),
  }),
});

export const {
  useGetAccountEmailQuery,
  useSetAccountEmailMutation,
  useRemoveAccountEmailMutation,
  useVerifyEmailMutation,
  useRequestPasswordResetMutation,
  useConfirmPasswordResetMutation,
  useGetSignInsQuery,
  useSignOutSignInMutation,
  useSignOutOtherSignInsMutation,
  useGetUsernameStatusQuery,
  useChangeUsernameMutation,
} = accountsApi;
