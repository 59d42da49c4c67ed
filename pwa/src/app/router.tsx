/* eslint-disable react-refresh/only-export-components -- the route table is configuration; fast refresh of pages still works through their own modules */
import { lazy } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import { AppFrame, MemberLayout, PublicLayout } from './layouts';
import { RequireUser } from './RequireUser';
import { withPageMessages } from '../lib/i18n/i18n';
// The landing and login pages are part of the first download; every other page is lazy.
import LandingPage from '../features/landing/LandingPage';
import LoginPage from '../features/auth/LoginPage';

const SignupPage = lazy(() => import('../features/auth/SignupPage'));
const ConfirmAccountPage = lazy(() => import('../features/auth/ConfirmAccountPage'));
const DashboardPage = lazy(withPageMessages(() => import('./pages/Dashboard')));
const PrivacyPolicyPage = lazy(withPageMessages(() => import('../features/legal/PrivacyPolicyPage')));
const TermsOfServicePage = lazy(withPageMessages(() => import('../features/legal/TermsOfServicePage')));
const RulesPage = lazy(withPageMessages(() => import('../features/legal/RulesPage')));
const ContactSupportPage = lazy(withPageMessages(() => import('../features/support/ContactSupportPage')));
const TextChatPage = lazy(withPageMessages(() => import('../features/textChat/TextChatPage')));
const VideoChatPage = lazy(withPageMessages(() => import('../features/videoChat/VideoChatPage')));
const PremiumPage = lazy(withPageMessages(() => import('../features/billing/PremiumPage')));
const DonatePage = lazy(withPageMessages(() => import('../features/billing/DonatePage')));
const PaymentSuccessPage = lazy(withPageMessages(() => import('../features/billing/PaymentSuccessPage')));
const ModerationPage = lazy(withPageMessages(() => import('../features/safety/ModerationPage')));
const AppealPage = lazy(withPageMessages(() => import('../features/safety/AppealPage')));
const GroupChatListPage = lazy(withPageMessages(() => import('../features/groupChat/GroupChatListPage')));
const GroupRoomPage = lazy(withPageMessages(() => import('../features/groupChat/GroupRoomPage')));
const ConversationsPage = lazy(withPageMessages(() => import('../features/messages/ConversationsPage')));
const DirectConversationPage = lazy(withPageMessages(() => import('../features/messages/DirectConversationPage')));
const SearchPage = lazy(withPageMessages(() => import('../features/search/SearchPage')));
const ProfilePage = lazy(withPageMessages(() => import('../features/people/ProfilePage')));
const UserProfilePage = lazy(withPageMessages(() => import('../features/people/UserProfilePage')));
const SettingsPage = lazy(withPageMessages(() => import('../features/people/SettingsPage')));
const PerkSettings = lazy(withPageMessages(() => import('../features/billing/PerkSettings')));
const EmailSection = lazy(withPageMessages(() => import('../features/auth/settings/EmailSection')));
const UsernameSection = lazy(withPageMessages(() => import('../features/auth/settings/UsernameSection')));
const DevicesSection = lazy(withPageMessages(() => import('../features/auth/settings/DevicesSection')));
const SecuritySettings = lazy(withPageMessages(() => import('../features/auth/settings/SecuritySettings')));
const ForgotPasswordPage = lazy(withPageMessages(() => import('../features/auth/ForgotPasswordPage')));
const ResetPasswordPage = lazy(withPageMessages(() => import('../features/auth/ResetPasswordPage')));
const VerifyEmailPage = lazy(withPageMessages(() => import('../features/auth/VerifyEmailPage')));
const RecoverPage = lazy(withPageMessages(() => import('../features/auth/RecoverPage')));
const BackgroundImagePage = lazy(withPageMessages(() => import('../features/people/BackgroundImagePage')));
const MissionsPage = lazy(withPageMessages(() => import('../features/mission/MissionsPage')));
const StorePage = lazy(withPageMessages(() => import('../features/shop/StorePage')));
const NotAuthorizedPage = lazy(withPageMessages(() => import('./pages/NotAuthorizedPage')));
const NotFoundPage = lazy(withPageMessages(() => import('./pages/NotFoundPage')));
const LiveListPage = lazy(withPageMessages(() => import('../features/live/LiveListPage')));
const LiveStreamPage = lazy(withPageMessages(() => import('../features/live/LiveStreamPage')));

/** What other areas add to Settings, one line each. */
const settingsSections = (
  <>
    <PerkSettings />
    <EmailSection />
    <UsernameSection />
    <DevicesSection />
    <SecuritySettings />
  </>
);

/** The route table, with who may open each route. */
export const routes: RouteObject[] = [
  {
    element: <AppFrame />,
    children: [
      {
        // The landing and the ways in: the public top bar.
        element: <PublicLayout />,
        children: [
          { path: '/', element: <LandingPage /> },
          { path: '/login', element: <LoginPage /> },
          { path: '/createaccount', element: <SignupPage /> },
          { path: '/forgot-password', element: <ForgotPasswordPage /> },
          { path: '/reset-password', element: <ResetPasswordPage /> },
        ],
      },
      {
        // Every page in the frame shares this one layout (the frame stays mounted from page to
        // page): public pages get it for a signed-in person, the public top bar for a visitor.
        element: <MemberLayout />,
        children: [
          { path: '/privacy-policy', element: <PrivacyPolicyPage /> },
          { path: '/terms-of-service', element: <TermsOfServicePage /> },
          // Public: the Terms bind people to the rules, so they are readable before sign-up.
          { path: '/rules', element: <RulesPage /> },
          { path: '/contact-support', element: <ContactSupportPage /> },
          { path: '/not-authorized', element: <NotAuthorizedPage /> },
          { path: '/appeal', element: <AppealPage /> },
          { path: '/recover', element: <RecoverPage /> },
          { path: '/backgroundimage', element: <BackgroundImagePage /> },
          { path: '/payment/success', element: <PaymentSuccessPage /> },
          // The confirmation link works on any device, signed in or not.
          { path: '/verify-email', element: <VerifyEmailPage /> },
          // Signed-in routes.
          {
            element: <RequireUser />,
            children: [
              { path: '/textchat', element: <TextChatPage /> },
              { path: '/videochat', element: <VideoChatPage /> },
              { path: '/groupchat', element: <GroupChatListPage /> },
              { path: '/groupchat/:roomId', element: <GroupRoomPage /> },
              { path: '/messages', element: <ConversationsPage /> },
              { path: '/messages/:username', element: <DirectConversationPage /> },
              { path: '/search', element: <SearchPage /> },
              { path: '/settingboard', element: <SettingsPage more={settingsSections} /> },
              { path: '/profile', element: <ProfilePage /> },
              { path: '/users/:username', element: <UserProfilePage /> },
              { path: '/livestream', element: <LiveListPage /> },
              { path: '/livestream/:roomId', element: <LiveStreamPage /> },
              { path: '/premium-membership', element: <PremiumPage /> },
              { path: '/donate', element: <DonatePage /> },
              { path: '/moderation', element: <ModerationPage /> },
              { path: '/missions', element: <MissionsPage /> },
              { path: '/store', element: <StorePage /> },
            ],
          },
        ],
      },
      // Public; a visitor gets the dashboard's own header (the way in), a member the frame.
      { element: <MemberLayout visitorBar={false} />, children: [{ path: '/dashboard', element: <DashboardPage /> }] },
      { path: '/confirm-account', element: <ConfirmAccountPage /> },
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
