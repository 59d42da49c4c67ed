import { Link } from 'react-router-dom';
import { useAppSelector } from '../../store/hooks';
import { Avatar } from '../../components/Avatar';
import { focusRing } from '../../components/ui/buttonStyles';
import { OfflineBanner } from '../../components/OfflineBanner';
import type { ChatFilters } from '@parley/contract/matchmaking';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const genderWords: Record<ChatFilters['gender'], MessageDescriptor> = {
  All: msg`everyone`,
  male: msg`men`,
  female: msg`women`,
  other: msg`people of other genders`,
};

/** The chat filters this device saved, in a sentence of the interface language. */
function filtersLine(filters: ChatFilters, i18n: I18n): string {
  const who = i18n._(genderWords[filters.gender]);
  const { minAge, maxAge } = filters.ageRange;
  if (filters.topics.length === 0) return i18n._(msg`Your chat filters: ${who}, ages ${minAge} to ${maxAge}.`);
  const topics = new Intl.ListFormat(i18n.locale === 'en-XA' ? 'en' : i18n.locale, { type: 'unit' }).format(filters.topics);
  return i18n._(msg`Your chat filters: ${who}, ages ${minAge} to ${maxAge}, topics ${topics}.`);
}

/**
 * A signed-in screen opened while the server cannot be reached: what this device saved is shown,
 * and the session is retried by itself when the connection returns (SessionRestore).
 */
export function OfflineSessionScreen() {
  const { i18n } = useLingui();
  const profile = useAppSelector((s) => s.profile);
  const filters = useAppSelector((s) => s.searchPreferences.chatFilters);
  return (
    <div className="min-h-dvh bg-slate-50">
      <OfflineBanner forceShow />
      <main id="main" className="mx-auto grid max-w-xl gap-6 px-4 py-10">
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>This page needs a connection</Trans>
        </h1>
        {profile.username ? (
          <div className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5">
            <Avatar name={profile.username} src={profile.avatar} size={48} />
            <div>
              <p className="font-semibold text-slate-900">{profile.username}</p>
              <p className="text-sm text-slate-700">{filtersLine(filters, i18n)}</p>
            </div>
          </div>
        ) : null}
        <p className="text-slate-700">
          <Trans>Parley will sign you back in and open this page as soon as your device is online again. Nothing you need to do.</Trans>
        </p>
        <Link to="/dashboard" className={`justify-self-start font-semibold text-indigo-700 underline ${focusRing}`}>
          <Trans>Go to the dashboard</Trans>
        </Link>
      </main>
    </div>
  );
}
