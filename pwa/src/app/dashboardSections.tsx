/* eslint-disable react-refresh/only-export-components -- the section list is configuration; each section's component lives in its feature */
import { lazy } from 'react';
import type { DashboardSection } from '../features/dashboard/sections';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';

// Each section's code loads with the dashboard, not with the first page.
const FriendsOnline = lazy(() =>
  import('../features/people/FriendsOnlineSection').then((m) => ({
    default: function YourFriends() {
      const { t } = useLingui();
      return <m.FriendsOnlineSection title={t`Your friends`} />;
    },
  })),
);
const RecentPartners = lazy(() => import('../features/people/RecentPartnersSection').then((m) => ({ default: m.RecentPartnersSection })));
const UnreadMessages = lazy(() => import('../features/direct/UnreadMessagesSection').then((m) => ({ default: m.UnreadMessagesSection })));
const Missions = lazy(() => import('../features/missions/MissionsSection'));
const LiveNow = lazy(() => import('../features/live/LiveNowSection'));

/**
 * The dashboard's sections, in the order they show: the app composes them so that the dashboard
 * imports no other feature. A section renders its own content and empty state; `audience:
 * 'everyone'` shows it to visitors as well.
 */
export const dashboardSections: readonly DashboardSection[] = [
  // Titles read when the dashboard renders, in the interface language of that moment.
  {
    id: 'friends-online',
    get title() {
      return i18n._(msg`Friends online`);
    },
    Component: FriendsOnline,
  },
  {
    id: 'unread-messages',
    get title() {
      return i18n._(msg`Unread messages`);
    },
    Component: UnreadMessages,
  },
  {
    id: 'recent-partners',
    get title() {
      return i18n._(msg`People you met`);
    },
    Component: RecentPartners,
  },
  {
    id: 'missions',
    get title() {
      return i18n._(msg`Missions`);
    },
    Component: Missions,
  },
  {
    id: 'live-now',
    get title() {
      return i18n._(msg`Live now`);
    },
    Component: LiveNow,
  },
];
