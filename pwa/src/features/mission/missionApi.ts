import type { ClaimQuest, MissionOverview, MissionSettings } from '@parley/contract/missions';
import { api } from '../../app/api';
import { missionActions } from './missionSlice';

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
