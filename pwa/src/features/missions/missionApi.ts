import type { ClaimQuest, MissionOverview, MissionSettings } from '@parley/contract/missions';
import { api } from '../../store/api';
import { missionActions, type MissionState } from './missionSlice';
import { shopEvents, type GoldChanged } from '@parley/contract/shop';
import { onSocketEvent } from '../../realtime/socket';
import { purchasesSettled } from '../../lib/purchasesInFlight';

type Recorded = { counted: boolean; levelUp?: number };

export const missionApi = api.injectEndpoints({
  endpoints: (builder) => ({
    missions: builder.query<MissionOverview, void>({
      query: () => '/api/missions',
      providesTags: ['Mission', 'MissionQuest'],
      // The spec's `mission` state follows what the server answered.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        const { level, XP, nextLevel, gold, consecutiveDays, parsedDates } = data;
        dispatch(missionActions.setMissionProgress({ level, XP, nextLevel, gold, consecutiveDays, parsedDates }));
      },
      // While the missions are held: the server says when the gold changed. The tab that made the
      // change already holds its answer, so the echo of a gold it shows changes nothing; another
      // tab's purchase also changed what is owned, and a change that does not say the gold is fetched again.
      async onCacheEntryAdded(_arg, { updateCachedData, dispatch, getState, cacheDataLoaded, cacheEntryRemoved }) {
        if (!(await cacheDataLoaded.then(() => true).catch(() => false))) return;
        const off = onSocketEvent(shopEvents.goldChanged, async (payload) => {
          const { gold } = (payload ?? {}) as GoldChanged;
          // This tab's own purchase may still be waiting for its answer, which brings the same gold.
          await purchasesSettled();
          // This tab's purchase already put its answer's gold in the mission state.
          let shown = gold !== undefined && (getState() as unknown as { mission: MissionState }).mission.gold === gold;
          if (gold !== undefined)
            updateCachedData((m) => {
              shown ||= m.gold === gold;
              m.gold = gold;
            });
          if (!shown) dispatch(api.util.invalidateTags(gold === undefined ? ['Mission', 'Store', 'Emoji'] : ['Store', 'Emoji']));
        });
        await cacheEntryRemoved;
        off();
      },
    }),
    visit: builder.mutation<Recorded, { timeZone: string }>({
      query: (body) => ({ url: '/api/missions/visit', method: 'POST', body }),
      invalidatesTags: (r) => (r?.counted ? ['Mission', 'MissionQuest'] : []),
    }),
    claimQuest: builder.mutation<Recorded, ClaimQuest>({
      query: (body) => ({ url: '/api/missions/quests/claim', method: 'POST', body }),
      invalidatesTags: ['Mission', 'MissionQuest', 'Store'],
    }),
    saveMissionSettings: builder.mutation<void, MissionSettings>({
      query: (body) => ({ url: '/api/missions/settings', method: 'PUT', body }),
      invalidatesTags: ['Mission'],
    }),
  }),
});

export const { useMissionsQuery, useVisitMutation, useClaimQuestMutation, useSaveMissionSettingsMutation } = missionApi;
