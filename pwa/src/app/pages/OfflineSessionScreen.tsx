import { Link } from 'react-router-dom';
import { useAppSelector } from '../hooks';
import { Avatar } from '../../components/Avatar';
import { focusRing } from '../../components/FormField';
import { OfflineBanner } from '../../components/OfflineBanner';

/**
 * A signed-in screen opened while the server cannot be reached: what this device saved is shown,
 * and the session is retried by itself when the connection returns (SessionRestore).
 */
export function OfflineSessionScreen() {
  const profile = useAppSelector((s) => s.profile);
  const filters = useAppSelector((s) => s.searchPreferences.chatFilters);
  return (
    <div className="min-h-dvh bg-slate-50">
      <OfflineBanner forceShow />
      <main id="main" className="mx-auto grid max-w-xl gap-6 px-4 py-10">
        <h1 className="text-2xl font-bold text-slate-900">This page needs a connection</h1>
        {profile.username ? (
          <div className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5">
            <Avatar name={profile.username} src={profile.avatar} size={48} />
            <div>
              <p className="font-semibold text-slate-900">{profile.username}</p>
              <p className="text-sm text-slate-700">
                Your chat filters: {filters.gender === 'All' ? 'everyone' : filters.gender}, ages {filters.ageRange.minAge} to{' '}
                {filters.ageRange.maxAge}
                {filters.topics.length > 0 ? `, topics ${filters.topics.join(', ')}` : ''}.
              </p>
            </div>
          </div>
        ) : null}
        <p className="text-slate-700">
          Parley will sign you back in and open this page as soon as your device is online again. Nothing you need to do.
        </p>
        <Link to="/dashboard" className={`justify-self-start font-semibold text-indigo-700 underline ${focusRing}`}>
          Go to the dashboard
        </Link>
      </main>
    </div>
  );
}
