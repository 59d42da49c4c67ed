import type { DashboardSection } from '../features/dashboard/sections';

/**
 * The dashboard's sections, in the order they show: the app composes them so that the dashboard
 * imports no other feature. To plug a feature's section in, replace its `coming` entry with the
 * component, loaded lazily so that its code comes with the dashboard:
 *
 *   const FriendsOnline = lazy(() => import('../features/people/FriendsOnlineSection'));
 *   { id: 'friends-online', title: 'Friends online', Component: FriendsOnline },
 *
 * The component renders its own content and its own empty state; `audience: 'everyone'` shows it
 * to visitors as well.
 */
export const dashboardSections: readonly DashboardSection[] = [
  {
    id: 'friends-online',
    title: 'Friends online',
    coming: 'Add the people you enjoy talking to as friends, and see here when they are online.',
  },
  {
    id: 'unread-messages',
    title: 'Unread messages',
    coming: 'Messages from your friends will wait for you here.',
  },
  {
    id: 'missions',
    title: 'Missions',
    coming: 'Small goals for meeting people, with rewards for the ones you complete.',
  },
  {
    id: 'live-now',
    title: 'Live now',
    coming: 'People streaming live, to watch and chat along.',
  },
];
