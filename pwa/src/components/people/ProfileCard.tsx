import type { UserProfile } from '@parley/contract/people';
import { Avatar } from '../Avatar';
import { DisplayName } from './DisplayName';
import { countryName } from '../../lib/countries';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const genderWords = { male: msg`Male`, female: msg`Female`, other: msg`Other` } as const;

type Card = Pick<UserProfile, 'username' | 'avatar' | 'premiumUser' | 'rating' | 'createdAt'> &
  Partial<Pick<UserProfile, 'gender' | 'age' | 'description' | 'hobbies' | 'country' | 'limited' | 'nameStyle' | 'thankedDonor'>>;

/** A user's card as others see it: only the fields present are shown (the server leaves out what is private). */
export function ProfileCard({ profile, headingLevel = 1 }: { profile: Card; headingLevel?: 1 | 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  const { i18n, t } = useLingui();
  const name = profile.username;
  const up = profile.rating.up;
  const down = profile.rating.down;
  // In a <time>: the machine-readable date beside the one the interface language writes.
  const since = (
    <time dateTime={new Date(profile.createdAt).toISOString().slice(0, 7)}>
      {i18n.date(new Date(profile.createdAt), { month: 'long', year: 'numeric' })}
    </time>
  );
  const facts = [
    profile.gender ? i18n._(genderWords[profile.gender]) : null,
    profile.age ? `${profile.age}` : null,
    profile.country ? countryName(profile.country) : null,
  ].filter(Boolean);
  // One's own preview has no style from the server yet: the tier alone decides the badge.
  const style = profile.nameStyle ?? { badge: Boolean(profile.premiumUser) && profile.premiumUser !== 'free tier', nameColour: null };
  return (
    <section aria-label={t`${name}'s profile`} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex items-center gap-4">
        <Avatar name={profile.username} src={profile.avatar} size={72} />
        <div className="min-w-0">
          <Heading className="flex flex-wrap items-center gap-2 text-xl font-bold text-slate-900">
            <DisplayName name={profile.username} style={style} />
          </Heading>
          {facts.length > 0 && <p className="text-sm text-slate-700">{facts.join(' · ')}</p>}
          <p className="text-sm text-slate-700">
            <span aria-label={t`${up} thumbs up, ${down} thumbs down`}>
              👍 {profile.rating.up} · 👎 {profile.rating.down}
            </span>
            <span className="mx-1" aria-hidden="true">
              ·
            </span>
            <Trans>Member since {since}</Trans>
          </p>
        </div>
      </div>
      {profile.thankedDonor && (
        <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <span aria-hidden="true">💛 </span>
          <Trans>{name} donated to keep Parley running. Thank you!</Trans>
        </p>
      )}
      {profile.limited && (
        <p className="mt-4 text-sm text-slate-700">
          <Trans>{name} shows their profile to friends only.</Trans>
        </p>
      )}
      {profile.description && (
        <p dir="auto" className="mt-4 break-words whitespace-pre-wrap text-slate-800">
          {profile.description}
        </p>
      )}
      {profile.hobbies && profile.hobbies.length > 0 && (
        <ul aria-label={t`Hobbies`} className="mt-4 flex flex-wrap gap-1.5">
          {profile.hobbies.map((h) => (
            <li key={h} className="rounded-full bg-indigo-100 px-2.5 py-0.5 text-sm text-indigo-900">
              {h}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
