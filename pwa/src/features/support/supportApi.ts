import type { SupportRequest } from '@parley/contract/auth';
import { api } from '../../store/api';

export const supportApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** Files a request with the support team; the Bearer header links it to a signed-in user. */
    sendSupportRequest: builder.mutation<{ id: string }, SupportRequest>({
      query: (body) => ({ url: '/api/support', method: 'POST', body }),
    }),
  }),
});

export const { useSendSupportRequestMutation } = supportApi;
