import type { CustomEmojiList, ItemQuery, OwnedEmoji, PurchaseAnswer, PurchaseRequest, StoreItem } from '@parley/contract/shop';
import { api } from '../../app/api';
import { shopActions } from './shopSlice';

export const shopApi = api.injectEndpoints({
  endpoints: (builder) => ({
    storeItems: builder.query<StoreItem[], ItemQuery>({
      query: (params) => ({ url: '/api/shop/items', params: Object.fromEntries(Object.entries(params).filter(([, v]) => v)) }),
      providesTags: ['Store'],
      // The spec's `store` state: the whole catalogue, and the results of a search or category.
      async onQueryStarted(params, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        dispatch(params.q || params.kind ? shopActions.setSearchResults(data) : shopActions.setStoreItems(data));
      },
    }),
    ownedEmoji: builder.query<OwnedEmoji[], void>({ query: () => '/api/shop/emoji', providesTags: ['Emoji'] }),
    buyItem: builder.mutation<PurchaseAnswer, PurchaseRequest>({
      query: (body) => ({ url: '/api/shop/purchases', method: 'POST', body }),
      invalidatesTags: (_r, error) => (error ? ['Mission'] : ['Store', 'Emoji', 'Mission']),
    }),
    customEmoji: builder.query<CustomEmojiList, void>({ query: () => '/api/shop/emoji/custom', providesTags: ['Emoji'] }),
    uploadEmoji: builder.mutation<OwnedEmoji, { name: string; file: File }>({
      query: ({ name, file }) => ({
        url: '/api/shop/emoji/custom',
        method: 'POST',
        params: { name },
        body: file,
        headers: { 'content-type': file.type || 'application/octet-stream' },
      }),
      invalidatesTags: ['Emoji'],
    }),
    deleteEmoji: builder.mutation<void, string>({
      query: (name) => ({ url: `/api/shop/emoji/custom/${encodeURIComponent(name)}`, method: 'DELETE' }),
      invalidatesTags: ['Emoji'],
    }),
  }),
});

export const {
  useStoreItemsQuery,
  useOwnedEmojiQuery,
  useBuyItemMutation,
  useCustomEmojiQuery,
  useUploadEmojiMutation,
  useDeleteEmojiMutation,
} = shopApi;
