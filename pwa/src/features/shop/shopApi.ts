import type { CustomEmojiList, ItemQuery, OwnedEmoji, PurchaseAnswer, PurchaseRequest, StoreItem } from '@parley/contract/shop';
import { api } from '../../store/api';
import { shopActions } from './shopSlice';
import { purchaseStarted } from '../../lib/purchasesInFlight';

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
    ownedEmoji: builder.query<OwnedEmoji[], void>({
      query: () => '/api/shop/emoji',
      providesTags: ['Emoji', { type: 'Emoji', id: 'owned' }],
    }),
    buyItem: builder.mutation<PurchaseAnswer, PurchaseRequest>({
      query: (body) => ({ url: '/api/shop/purchases', method: 'POST', body }),
      // The answer says what changed: the item is now owned (the gold left goes to the missions'
      // state, missionSlice); only a pack's emoji are fetched again. A refusal (not enough gold)
      // means the gold shown was stale.
      invalidatesTags: (_r, error) => (error ? ['Mission'] : []),
      async onQueryStarted(_body, { dispatch, getState, queryFulfilled }) {
        purchaseStarted(queryFulfilled);
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        let pack = false;
        for (const args of shopApi.util.selectCachedArgsForQuery(getState(), 'storeItems')) {
          dispatch(
            shopApi.util.updateQueryData('storeItems', args, (items) => {
              for (const item of items)
                if (item.id === data.itemId) {
                  item.owned = true;
                  pack ||= item.kind === 'emojiPack';
                }
            }),
          );
        }
        if (pack) dispatch(shopApi.util.invalidateTags([{ type: 'Emoji', id: 'owned' }]));
      },
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
