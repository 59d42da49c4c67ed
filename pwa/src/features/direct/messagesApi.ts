import type { ConversationsAnswer, OpenDirectAnswer } from '@parley/contract/direct';
import { api } from '../../store/api';

export const messagesApi = api.enhanceEndpoints({ addTagTypes: ['Conversation'] }).injectEndpoints({
  endpoints: (builder) => ({
    conversations: builder.query<ConversationsAnswer, void>({
      query: () => ({ url: '/api/direct' }),
      providesTags: ['Conversation'],
    }),
    /** Opens (or finds) the direct room with a friend. */
    openDirect: builder.query<OpenDirectAnswer, string>({
      query: (username) => ({ url: `/api/direct/${encodeURIComponent(username)}`, method: 'POST' }),
    }),
  }),
});

export const { useConversationsQuery, useOpenDirectQuery } = messagesApi;
