import { DocumentTitle } from '../../components/DocumentTitle';
import { describeApiError } from '../../lib/apiError';
import { useGetProfileQuery } from './peopleApi';
import { AvatarEditor } from './components/AvatarEditor';
import { FriendRequestsList } from './components/FriendRequestsList';
import { ProfileForm } from './components/ProfileForm';
import { LanguagesForm } from './components/LanguagesForm';
import { Section } from './components/Section';
import { FriendsOnlineSection } from './FriendsOnlineSection';
import { RecentPartnersSection } from './RecentPartnersSection';
import { Trans, useLingui } from '@lingui/react/macro';

/** /profile: the own profile (avatar, about, hobbies, privacy, preview), friends and requests; the password is in Settings. */
export default function ProfilePage() {
  const { data: profile, error, isLoading } = useGetProfileQuery();
  const { t } = useLingui();
  return (
    <main id="main" className="mx-auto grid max-w-5xl gap-4 px-3 py-6 sm:px-4">
      <DocumentTitle title={t`Your profile · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Your profile</Trans>
      </h1>
      {isLoading ? (
        <p role="status">
          <Trans>Loading Content...</Trans>
        </p>
      ) : !profile ? (
        <p role="alert" className="text-red-700">
          {describeApiError(error, t`Your profile could not be loaded.`)}
        </p>
      ) : (
        <>
          <Section title={t`Avatar`}>
            <AvatarEditor profile={profile} />
          </Section>
          <Section title={t`About you`} description={t`Fields marked for friends only are never sent to anyone else.`}>
            <ProfileForm key={profile.username} profile={profile} />
          </Section>
          <Section title={t`Languages`} description={t`Chats prefer someone who shares a language, or who speaks what you learn.`}>
            <LanguagesForm key={profile.username} profile={profile} />
          </Section>
          <Section title={t`Friend requests`}>
            <FriendRequestsList />
          </Section>
          <FriendsOnlineSection />
          <RecentPartnersSection />
        </>
      )}
    </main>
  );
}
