/* eslint-disable react-refresh/only-export-components -- the section list is configuration; each section's component lives in its feature */
import { lazy } from 'react';
import type { DashboardSection } from '../features/dashboard/sections';

// Each section's code loads with the dashboard, not with the first page.
const FriendsOnline = lazy(() => import('../features/people/FriendsOnlineSection').then((m) => ({ default: () => <m.FriendsOnlineSection title="Your friends" /> })));
const RecentPartners = lazy(() => import('../features/people/RecentPartnersSection').then((m) => ({ default: m.RecentPartnersSection })));
const UnreadMessages = lazy(() => import('../features/messages/UnreadMessagesSection').then((m) => ({ default: m.UnreadMessagesSection })));
const Missions = lazy(() => import('../features/mission/MissionsSection'));
const LiveNow = lazy(() => import('../features/live/LiveNowSection'));

/**
 * The dashboard's sections, in the order they show: the app composes them so that the dashboard
 * imports no other feature. A section renders its own content and empty state; `audience:
 * 'everyone'` shows it to visitors as well.
 */
export const dashboardSections: readonly DashboardSection[] = [
  { id: 'friends-online', title: 'Friends online', Component: FriendsOnline },
  { id: 'unread-messages', title: 'Unread messages', Component: UnreadMessages },
  { id: 'recent-partners', title: 'People you met', Component: RecentPartners },
  { id: 'missions', title: 'Missions', Component: Missions },
  { id: 'live-now', title: 'Live now', Component: LiveNow },
];
