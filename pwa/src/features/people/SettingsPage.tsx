import type { ReactNode } from 'react';
import { DocumentTitle } from '../../components/DocumentTitle';
import { ThemeSetting } from '../../components/ThemeSetting';
import { describeApiError } from '../../lib/apiError';
import { useGetSettingsQuery } from './peopleApi';
import { Section } from './components/Section';
import { AccountActions } from './settings/AccountActions';
import { ChatDefaults } from './settings/ChatDefaults';
import { DeviceChoice } from './settings/DeviceChoice';
import { NudityGuardSwitch } from './settings/NudityGuardSwitch';
import { NotificationPreferences } from './settings/NotificationPreferences';
import { BlockedUsers, PrivacySettings } from './settings/PrivacyAndBlocks';
import { Trans, useLingui } from '@lingui/react/macro';
import { LanguageSetting } from './settings/LanguageSetting';

/**
 * /settingboard: chat defaults, devices, notifications, privacy, blocked users and the account
 * itself; `more` is what other areas add (the app composes them in).
 */
export default function SettingsPage({ more }: { more?: ReactNode }) {
  const { data: settings, error, isLoading } = useGetSettingsQuery();
  const { t } = useLingui();
  return (
    <main id="main" className="mx-auto grid max-w-3xl gap-4 px-3 py-6 sm:px-4">
      <DocumentTitle title={t`Settings · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Settings</Trans>
      </h1>
      {/* Device preferences: they work before (and without) the account's settings loading. */}
      <Section title={t`Language`}>
        <LanguageSetting />
      </Section>
      <Section title={t`Appearance`}>
        <ThemeSetting />
      </Section>
      {isLoading ? (
        <p role="status">
          <Trans>Loading Content...</Trans>
        </p>
      ) : !settings ? (
        <p role="alert" className="text-red-700">
          {describeApiError(error, t`Your settings could not be loaded.`)}
        </p>
      ) : (
        <>
          <Section title={t`Chat defaults`} description={t`What a new text or video chat search starts with.`}>
            <ChatDefaults settings={settings} />
            <div className="mt-4 border-t border-slate-100 pt-4">
              <NudityGuardSwitch />
            </div>
          </Section>
          <Section title={t`Camera and microphone`}>
            <DeviceChoice settings={settings} />
          </Section>
          <Section title={t`Notifications`}>
            <NotificationPreferences settings={settings} />
          </Section>
          <Section title={t`Privacy`}>
            <PrivacySettings settings={settings} />
          </Section>
          <Section title={t`Blocked users`}>
            <BlockedUsers />
          </Section>
          {more}
          <Section title={t`Account`}>
            <AccountActions />
          </Section>
        </>
      )}
    </main>
  );
}
