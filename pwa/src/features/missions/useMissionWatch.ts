import { useEffect } from 'react';
import { missionEvents } from '@parley/contract/missions';
import { api } from '../../store/api';
import { useAppDispatch } from '../../store/hooks';
import { onSocketEvent } from '../../realtime/socket';
import { toast } from '../../lib/toast';
import { useMissionsQuery, useVisitMutation } from './missionApi';
import { useLingui } from '@lingui/react/macro';

/** The device's IANA time zone: the user's days (streak, quests) are counted in it. */
const deviceTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * While a user is signed in: counts today's visit once per page load (in the device's time zone),
 * and refetches missions when the server says progress changed.
 */
export function useMissionWatch(userId: string | undefined) {
  const dispatch = useAppDispatch();
  const [visit] = useVisitMutation();
  const { t } = useLingui();
  // Keeps the spec's `mission` state (level, XP, gold, streak) current on every signed-in page.
  useMissionsQuery(undefined, { skip: !userId });

  useEffect(() => {
    if (userId) void visit({ timeZone: deviceTimeZone() });
  }, [userId, visit]);

  useEffect(() => {
    // A level reached is LevelUpMoment's to show.
    const offProgress = onSocketEvent(missionEvents.progressed, () => dispatch(api.util.invalidateTags(['Mission', 'MissionQuest'])));
    const offReminder = onSocketEvent(missionEvents.reminder, () =>
      toast({ title: t`Keep your streak going`, description: t`Have a chat today to keep your daily streak.` }),
    );
    return () => {
      offProgress();
      offReminder();
    };
  }, [dispatch, t]);
}
