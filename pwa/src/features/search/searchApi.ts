import type { SearchPage } from '@parley/contract/search';
import { api } from '../../store/api';

/** What the search page asks: its filters as the URL keeps them, and where a page starts. */
export type SearchArgs = {
  q: string;
  from?: string | undefined;
  roomId?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
  hasLink?: boolean | undefined;
  hasPicture?: boolean | undefined;
  hasVoice?: boolean | undefined;
  cursor?: string | undefined;
};

export const searchApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** A page of messages found in the user's direct conversations and group rooms, newest first. */
    searchMessages: builder.query<SearchPage, SearchArgs>({
      query: ({ hasLink, hasPicture, hasVoice, ...rest }) => ({
        url: '/api/rooms/search',
        params: Object.fromEntries(
          Object.entries({
            ...rest,
            ...(hasLink && { hasLink: 'true' }),
            ...(hasPicture && { hasPicture: 'true' }),
            ...(hasVoice && { hasVoice: 'true' }),
          }).filter(([, v]) => v !== undefined && v !== ''),
        ),
      }),
      keepUnusedDataFor: 60,
    }),
  }),
});

export const { useSearchMessagesQuery } = searchApi;
