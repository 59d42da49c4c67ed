import { Link, useParams } from 'react-router-dom';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/ui/buttonStyles';
import { ProfileCard } from '../../components/people/ProfileCard';
import { describeApiError, httpStatus } from '../../lib/apiError';
import { useGetUserProfileQuery } from './peopleApi';
import { ProfileActions } from './components/ProfileActions';
import { FollowButton } from '../../components/people/FollowButton';
import { useFollowStateQuery, useSetFollowMutation } from '../../store/api';
import { PersonRow } from './components/PersonRow';
import { Section } from './components/Section';
import { Trans, useLingui } from '@lingui/react/macro';

/** /users/:username: another user's card, their friends (for friends), and what I can do. */
export default function UserProfilePage() {
  const { username = '' } = useParams();
  const { data: profile, error, isLoading } = useGetUserProfileQuery(username);
  const notFound = httpStatus(error) === 404 || httpStatus(error) === 400;
  const { t } = useLingui();
  const shownName = profile?.username ?? username;

  return (
    <main id="main" className="mx-auto grid max-w-3xl gap-4 px-3 py-6 sm:px-4">
      <DocumentTitle title={t`${shownName} · Parley`} />
      {isLoading ? (
        <p role="status">
          <Trans>Loading Content...</Trans>
        </p>
      ) : notFound ? (
        <section className="rounded-2xl border border-slate-200 bg-white p-6 text-center">
          <h1 className="text-xl font-bold text-slate-900">
            <Trans>No one goes by “{username}”</Trans>
          </h1>
          <p className="mt-2 text-slate-700">
            <Trans>The name may be misspelled, or the account was deleted.</Trans>
          </p>
          <Link to="/dashboard" className={`mt-4 inline-block font-semibold text-indigo-700 underline ${focusRing}`}>
            <Trans>Back to the dashboard</Trans>
          </Link>
        </section>
      ) : !profile ? (
        <p role="alert" className="text-red-700">
          {describeApiError(error, t`This profile could not be loaded.`)}
        </p>
      ) : (
        <>
          <ProfileCard profile={profile} />
          {profile.relation === 'self' ? (
            <Link to="/profile" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
              <Trans>Edit your profile</Trans>
            </Link>
          ) : (
            <div className="grid gap-2">
              <ProfileActions profile={profile} />
              <FollowPerson userId={profile.userId} name={profile.username} />
            </div>
          )}
          {profile.friendsList && (
            <Section title={t`${shownName}'s friends`}>
              {profile.friendsList.length === 0 ? (
                <p className="text-sm text-slate-700">
                  <Trans>No friends yet.</Trans>
                </p>
              ) : (
                <ul className="divide-y divide-slate-100">
                  {profile.friendsList.map((f) => (
                    <PersonRow key={f.userId} username={f.username} avatar={f.avatar} />
                  ))}
                </ul>
              )}
            </Section>
          )}
        </>
      )}
    </main>
  );
}

function FollowPerson({ userId, name }: { userId: string; name: string }) {
  const { data } = useFollowStateQuery(userId);
  const [setFollow, saving] = useSetFollowMutation();
  return (
    <FollowButton
      name={name}
      state={data}
      busy={saving.isLoading}
      setFollow={(follow) => setFollow({ userId, follow })}
      className="justify-self-start"
    />
  );
}
