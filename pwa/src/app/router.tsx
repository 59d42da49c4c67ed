/* eslint-disable react-refresh/only-export-components -- the route table is configuration; fast refresh of pages still works through their own modules */
import { isValidElement } from 'react';
import { matchRoutes, useRoutes, type RouteObject } from 'react-router-dom';
import { AppFrame, MemberLayout, PublicLayout } from './layouts';
import { RequireUser } from './RequireUser';
import { preloadSignedInFrame, preloadSignedInGuard } from './shellChunks';
import { lazyPage, preload } from './lazyPage';
import { hadSessionHere } from '../lib/sessionHint';
import { withPageMessages } from '../lib/i18n/i18n';
// The landing and login pages are part of the first download; every other page is lazy.
import LandingPage from '../features/landing/LandingPage';
import LoginPage from '../features/auth/LoginPage';

const SignupPage = lazyPage(() => import('../features/auth/SignupPage'));
const ConfirmAccountPage = lazyPage(() => import('../features/auth/ConfirmAccountPage'));
const DashboardPage = lazyPage(withPageMessages(() => import('./pages/Dashboard')));
const PrivacyPolicyPage = lazyPage(withPageMessages(() => import('../features/legal/PrivacyPolicyPage')));
const TermsOfServicePage = lazyPage(withPageMessages(() => import('../features/legal/TermsOfServicePage')));
const RulesPage = lazyPage(withPageMessages(() => import('../features/legal/RulesPage')));
const ContactSupportPage = lazyPage(withPageMessages(() => import('../features/support/ContactSupportPage')));
const TextChatPage = lazyPage(withPageMessages(() => import('../features/textChat/TextChatPage')));
const VideoChatPage = lazyPage(withPageMessages(() => import('../features/videoChat/VideoChatPage')));
const PremiumPage = lazyPage(withPageMessages(() => import('../features/billing/PremiumPage')));
const DonatePage = lazyPage(withPageMessages(() => import('../features/billing/DonatePage')));
const PaymentSuccessPage = lazyPage(withPageMessages(() => import('../features/billing/PaymentSuccessPage')));
const ModerationPage = lazyPage(withPageMessages(() => import('../features/safety/ModerationPage')));
const AppealPage = lazyPage(withPageMessages(() => import('../features/safety/AppealPage')));
const GroupChatListPage = lazyPage(withPageMessages(() => import('../features/groups/GroupChatListPage')));
const GroupRoomPage = lazyPage(withPageMessages(() => import('../features/groups/GroupRoomPage')));
const ConversationsPage = lazyPage(withPageMessages(() => import('../features/direct/ConversationsPage')));
const DirectConversationPage = lazyPage(withPageMessages(() => import('../features/direct/DirectConversationPage')));
const SearchPage = lazyPage(withPageMessages(() => import('../features/search/SearchPage')));
const ProfilePage = lazyPage(withPageMessages(() => import('../features/people/ProfilePage')));
const UserProfilePage = lazyPage(withPageMessages(() => import('../features/people/UserProfilePage')));
const SettingsPage = lazyPage(withPageMessages(() => import('../features/people/SettingsPage')));
const PerkSettings = lazyPage(withPageMessages(() => import('../features/billing/PerkSettings')));
const EmailSection = lazyPage(withPageMessages(() => import('../features/auth/settings/EmailSection')));
const UsernameSection = lazyPage(withPageMessages(() => import('../features/auth/settings/UsernameSection')));
const DevicesSection = lazyPage(withPageMessages(() => import('../features/auth/settings/DevicesSection')));
const SecuritySettings = lazyPage(withPageMessages(() => import('../features/auth/settings/SecuritySettings')));
const ForgotPasswordPage = lazyPage(withPageMessages(() => import('../features/auth/ForgotPasswordPage')));
const ResetPasswordPage = lazyPage(withPageMessages(() => import('../features/auth/ResetPasswordPage')));
const VerifyEmailPage = lazyPage(withPageMessages(() => import('../features/auth/VerifyEmailPage')));
const RecoverPage = lazyPage(withPageMessages(() => import('../features/auth/RecoverPage')));
const BackgroundImagePage = lazyPage(withPageMessages(() => import('../features/people/BackgroundImagePage')));
const MissionsPage = lazyPage(withPageMessages(() => import('../features/missions/MissionsPage')));
const StorePage = lazyPage(withPageMessages(() => import('../features/shop/StorePage')));
const NotAuthorizedPage = lazyPage(withPageMessages(() => import('./pages/NotAuthorizedPage')));
const NotFoundPage = lazyPage(withPageMessages(() => import('./pages/NotFoundPage')));
const LiveListPage = lazyPage(withPageMessages(() => import('../features/live/LiveListPage')));
const LiveStreamPage = lazyPage(withPageMessages(() => import('../features/live/LiveStreamPage')));
const LiveRecordPage = lazyPage(withPageMessages(() => import('../features/live/LiveRecordPage')));

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
              {
                path: '/settingboard',
                element: <SettingsPage more={settingsSections} />,
                handle: { preload: [PerkSettings, EmailSection, UsernameSection, DevicesSection, SecuritySettings] },
              },
              { path: '/profile', element: <ProfilePage /> },
              { path: '/users/:username', element: <UserProfilePage /> },
              { path: '/livestream', element: <LiveListPage /> },
              { path: '/livestream/:roomId', element: <LiveStreamPage /> },
              { path: '/livestream/:roomId/record', element: <LiveRecordPage /> },
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
 * Starts fetching the code of the page at `pathname` before the session check answers, so the
 * check and the page's chunks arrive together instead of one after the other. Only where this
 * browser had a session (the hint): a visitor opening a signed-in page is sent to /login, and
 * downloads none of the signed-in code for nothing.
 */
export function preloadRoute(pathname: string) {
  const matches = matchRoutes(routes, pathname) ?? [];
  const signedInOnly = matches.some(({ route }) => isValidElement(route.element) && route.element.type === RequireUser);
  if (!hadSessionHere()) {
    if (signedInOnly) return;
  } else {
    preloadSignedInFrame();
    if (signedInOnly) preloadSignedInGuard();
  }
  for (const { route } of matches) {
    if (isValidElement(route.element)) preload(route.element.type);
    const handle = route.handle as { preload?: unknown[] } | undefined;
    preload(...(handle?.preload ?? []));
  }
}

/**
 * The routes, rendered in declarative mode (inside a BrowserRouter): no loaders or actions are
 * used, and the data router would add about 17 kB (gzip) to the first download. A page that fails
 * to load or render is caught by AppFrame's error boundary.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
