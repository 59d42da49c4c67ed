/* eslint-disable react-refresh/only-export-components -- the route table is configuration; fast refresh of pages still works through their own modules */
import { lazy } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import { AppFrame, PublicLayout } from './layouts';
import { RequireUser } from './RequireUser';
// The landing and login pages are part of the first download; every other page is lazy.
import LandingPage from '../features/landing/LandingPage';
import LoginPage from '../features/auth/LoginPage';

const SignupPage = lazy(() => import('../features/auth/SignupPage'));
const ConfirmAccountPage = lazy(() => import('../features/auth/ConfirmAccountPage'));
const DashboardPage = lazy(() => import('./pages/Dashboard'));
const PrivacyPolicyPage = lazy(() => import('../features/legal/PrivacyPolicyPage'));
const TermsOfServicePage = lazy(() => import('../features/legal/TermsOfServicePage'));
const RulesPage = lazy(() => import('../features/legal/RulesPage'));
const ContactSupportPage = lazy(() => import('../features/support/ContactSupportPage'));
const TextChatPage = lazy(() => import('../features/chat/TextChatPage'));
const VideoChatPage = lazy(() => import('../features/videoChat/VideoChatPage'));
const NotAuthorizedPage = lazy(() => import('./pages/NotAuthorizedPage'));
const NotYetAvailablePage = lazy(() => import('./pages/NotYetAvailablePage'));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));

// Routes whose features arrive in later issues: registered with their access rule now.
const later = (path: string, feature: string): RouteObject => ({ path, element: <NotYetAvailablePage feature={feature} /> });

/** The route table, with who may open each route. */
export const routes: RouteObject[] = [
  {
    element: <AppFrame />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: '/', element: <LandingPage /> },
          { path: '/login', element: <LoginPage /> },
          { path: '/createaccount', element: <SignupPage /> },
          { path: '/privacy-policy', element: <PrivacyPolicyPage /> },
          { path: '/terms-of-service', element: <TermsOfServicePage /> },
          { path: '/contact-support', element: <ContactSupportPage /> },
          { path: '/not-authorized', element: <NotAuthorizedPage /> },
          { element: <RequireUser />, children: [{ path: '/rules', element: <RulesPage /> }] },
        ],
      },
      // Public
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/confirm-account', element: <ConfirmAccountPage /> },
      later('/backgroundimage', 'Background images'),
      later('/payment/success', 'Payments'),
      // Signed-in
      {
        element: <RequireUser />,
        children: [
          { path: '/textchat', element: <TextChatPage /> },
          { path: '/videochat', element: <VideoChatPage /> },
          later('/groupchat', 'Group chat'),
          later('/groupchat/:roomId', 'Group chat'),
          later('/livestream', 'Live streams'),
          later('/livestream/:roomId', 'Live streams'),
          later('/settingboard', 'Settings'),
          later('/profile', 'Your profile'),
          later('/premium-membership', 'Premium membership'),
          later('/donate', 'Donations'),
          later('/users/:username', 'Profiles'),
          later('/missions', 'Missions'),
          later('/store', 'The store'),
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * The routes, rendered in declarative mode (inside a BrowserRouter): no loaders or actions are
 * used, and the data router would add about 17 kB (gzip) to the first download. A page that fails
 * to load or render is caught by AppFrame's error boundary.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
