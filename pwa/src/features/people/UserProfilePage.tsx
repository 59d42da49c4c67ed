import { Link, useParams } from 'react-router-dom';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/FormField';
import { ProfileCard } from '../../components/people/ProfileCard';
import { describeApiError, httpStatus } from '../../lib/apiError';
import { useGetUserProfileQuery } from './peopleApi';
import { ProfileActions } from './components/ProfileActions';
import { FollowButton } from '../../components/people/FollowButton';
import { useFollowStateQuery, useSetFollowMutation } from '../../app/api';
import { PersonRow } from './components/PersonRow';
import { Section } from './components/Section';

/** /users/:username: another user's card, their friends (for friends), and what I can do. */
export default function UserProfilePage() {
  const { username = '' } = useParams();
  const { data: profile, error, isLoading } = useGetUserProfileQuery(username);
  const notFound = httpStatus(error) === 404 || httpStatus(error) === 400;

  return (
    <main id="main" className="mx-auto grid max-w-3xl gap-4 px-3 py-6 sm:px-4">
      <DocumentTitle title={`${profile?.username ?? username} · Parley`} />
      {isLoading ? (
        <p role="status">Loading Content...</p>
      ) : notFound ? (
        <section className="rounded-2xl border border-slate-200 bg-white p-6 text-center">
          <h1 className="text-xl font-bold text-slate-900">No one goes by “{username}”</h1>
          <p className="mt-2 text-slate-700">The name may be misspelled, or the account was deleted.</p>
          <Link to="/dashboard" className={`mt-4 inline-block font-semibold text-indigo-700 underline ${focusRing}`}>
            Back to the dashboard
          </Link>
        </section>
      ) : !profile ? (
        <p role="alert" className="text-red-700">
          {describeApiError(error, 'This profile could not be loaded.')}
        </p>
      ) : (
        <>
          <ProfileCard profile={profile} />
          {profile.relation === 'self' ? (
            <Link to="/profile" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
              Edit your profile
            </Link>
          ) : (
            <div className="grid gap-2">
              <ProfileActions profile={profile} />
              <FollowPerson userId={profile.userId} name={profile.username} />
            </div>
          )}
          {profile.friendsList && (
            <Section title={`${profile.username}'s friends`}>
              {profile.friendsList.length === 0 ? (
                <p className="text-sm text-slate-700">No friends yet.</p>
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
