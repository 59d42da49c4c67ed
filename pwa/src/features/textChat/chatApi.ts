import { api } from '../../store/api';

export const chatApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** The ten topics most searched in the last hour: suggestions for the filter panel. */
    popularTopics: builder.query<string[], void>({
      query: () => ({ url: '/api/chat/topics/popular' }),
      transformResponse: (answer: { topics?: unknown }) =>
        Array.isArray(answer.topics) ? answer.topics.filter((t): t is string => typeof t === 'string').slice(0, 10) : [],
    }),
  }),
});

export const { usePopularTopicsQuery } = chatApi;
