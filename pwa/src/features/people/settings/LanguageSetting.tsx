import { useEffect } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { UiLocale } from '@parley/contract/locales';
import { LanguageChooser } from '../../../components/LanguageChooser';
import { chooseLocale } from '../../../lib/i18n/i18n';
import { isShippedLocale, readSavedLocale, type Locale } from '../../../lib/i18n/locales';
import { useGetSettingsQuery, useUpdateSettingsMutation } from '../peopleApi';

/** The interface language in Settings: switched at once, remembered here and kept with the account. */
export function LanguageSetting() {
  const [update] = useUpdateSettingsMutation();
  return <LanguageChooser className="max-w-xs" onChosen={(locale: Locale) => isShippedLocale(locale) && void update({ locale })} />;
}

/**
 * Keeps the device and the account agreeing on the language, once per session: an account without
 * one takes the language this device shows (what pushes and emails are then written in); a device
 * where nobody chose yet takes the account's.
 */
export function AccountLanguageSync() {
  const { data: settings } = useGetSettingsQuery();
  const [update] = useUpdateSettingsMutation();
  const { i18n } = useLingui();
  const shown = i18n.locale;
  const stored = settings?.locale;
  useEffect(() => {
    if (stored === undefined) return;
    if (stored === null) {
      if (isShippedLocale(shown)) void update({ locale: shown as UiLocale });
    } else if (readSavedLocale() === null && stored !== shown) {
      void chooseLocale(stored).catch(() => undefined); // Offline: the next session tries again.
    }
    // Once per loaded answer; a choice made afterwards is saved by the chooser itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stored]);
  return null;
}
