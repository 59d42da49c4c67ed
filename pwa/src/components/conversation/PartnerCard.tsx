import type { ReactNode } from 'react';
import type { NameStyle } from '@parley/contract/billing';
import type { Receiver } from '@parley/contract/matchmaking';
import { Avatar } from '../Avatar';
import { DisplayName } from '../people/DisplayName';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const genderWords: Record<NonNullable<Receiver['gender']>, MessageDescriptor> = { male: msg`Male`, female: msg`Female`, other: msg`Other` };

/**
 * How the card reads where it stands: `card` at the head of a text conversation, `bar` above the
 * chat beside a video (dark, compact).
 */
const VARIANTS = {
  card: {
    label: msg`Your chat partner`,
    section:
      'mx-auto mb-4 flex max-w-md flex-col items-center gap-2 rounded-2xl border border-slate-200 bg-white p-4 text-center shadow-sm',
    avatar: 56,
    name: 'text-lg font-bold text-slate-900',
    facts: 'text-sm text-slate-600',
    topicsLabel: msg`Shared topics`,
    topics: 'flex flex-wrap justify-center gap-1.5',
    topic: 'rounded-full bg-indigo-100 px-2.5 py-0.5 text-sm text-indigo-900',
    noCommonTopic: msg`No common topic found, so you were matched on your other filters.`,
    noCommonTopicClass: 'rounded-lg bg-amber-50 px-3 py-1.5 text-sm text-amber-900',
  },
  bar: {
    label: msg`Your partner`,
    section: 'flex items-center gap-3 border-b border-slate-700 p-3',
    avatar: 40,
    name: 'truncate font-semibold text-white',
    facts: 'text-sm text-slate-300',
    topicsLabel: msg`Topics you share`,
    topics: 'mt-1 flex flex-wrap gap-1',
    topic: 'rounded-full bg-indigo-800 px-2 py-0.5 text-xs text-white',
    noCommonTopic: msg`No common topic found, so you were matched with anyone who fits your filters.`,
    noCommonTopicClass: 'text-xs text-amber-200',
  },
} as const;

/** Who the user is talking to: the public profile the matchmaker shared, and what they have in common. */
export function PartnerCard({
  receiver,
  noCommonTopic,
  variant = 'card',
  action,
  nameStyle,
}: {
  receiver: Receiver;
  /** The partner's premium badge and name colour, when known. */
  nameStyle?: NameStyle | undefined;
  noCommonTopic: boolean;
  variant?: keyof typeof VARIANTS;
  /** What the user can do about this partner (report), beside their name. */
  action?: ReactNode;
}) {
  const v = VARIANTS[variant];
  const { i18n } = useLingui();
  const facts = [receiver.age ? i18n.number(receiver.age) : null, receiver.gender ? i18n._(genderWords[receiver.gender]) : null]
    .filter(Boolean)
    .join(' · ');
  const topics = receiver.sharedTopics.length > 0 && (
    <ul aria-label={i18n._(v.topicsLabel)} className={v.topics}>
      {receiver.sharedTopics.map((t) => (
        <li key={t} className={v.topic}>
          {t}
        </li>
      ))}
    </ul>
  );
  const noTopic = noCommonTopic && <p className={v.noCommonTopicClass}>{i18n._(v.noCommonTopic)}</p>;

  if (variant === 'bar')
    return (
      <section aria-label={i18n._(v.label)} className={v.section}>
        <Avatar name={receiver.username} src={receiver.avatar || null} size={v.avatar} />
        <div className="min-w-0 flex-1">
          <p className={v.name}>
            {/* The bar is dark: the palette is for light surfaces, so only the badge shows here. */}
            <DisplayName name={receiver.username} style={nameStyle} colour={false} />
          </p>
          {facts && <p className={v.facts}>{facts}</p>}
          {topics || noTopic}
        </div>
        {action}
      </section>
    );
  return (
    <section aria-label={i18n._(v.label)} className={v.section}>
      <Avatar name={receiver.username} src={receiver.avatar || null} size={v.avatar} />
      <div>
        <h2 className={v.name}>
          <DisplayName name={receiver.username} style={nameStyle} />
        </h2>
        {facts && <p className={v.facts}>{facts}</p>}
      </div>
      {topics && (
        <div className="grid gap-1">
          <p className="text-xs font-medium text-slate-600">
            <Trans>You both like</Trans>
          </p>
          {topics}
        </div>
      )}
      {noTopic}
      <p className="text-xs text-slate-600">
        <Trans>Say hi! Be kind: Parley’s rules apply.</Trans>
      </p>
      {action}
    </section>
  );
}
