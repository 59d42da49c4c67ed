import { perksOf } from '@parley/contract/billing';
import type { RecentPartner } from '@parley/contract/people';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { useAppSelector } from '../../store/hooks';
import { describeApiError } from '../../lib/apiError';
import { toast } from '../../lib/toast';
import { useGetRecentPartnersQuery, useRateMutation, useSendFriendRequestMutation } from './peopleApi';
import { PersonRow } from './components/PersonRow';
import { Section, secondaryButton } from './components/Section';
import { Trans, useLingui } from '@lingui/react/macro';

function metWhen(i18n: I18n, iso: string) {
  const ago = new Intl.RelativeTimeFormat(i18n.locale, { numeric: 'auto' });
  const minutes = Math.round((new Date(iso).getTime() - Date.now()) / 60_000);
  return Math.abs(minutes) < 60 ? ago.format(minutes, 'minute') : ago.format(Math.round(minutes / 60), 'hour');
}

/** A span given in hours, as people say it: "24 hours", "3 days", "7 days". */
function hoursInWords(i18n: I18n, h: number) {
  const days = h / 24;
  return h % 24 === 0 && h > 24
    ? i18n._(msg`${plural(days, { one: '# day', other: '# days' })}`)
    : i18n._(msg`${plural(h, { one: '# hour', other: '# hours' })}`);
}

const RELATION_TEXT: Partial<Record<RecentPartner['relation'], MessageDescriptor>> = {
  friend: msg`Friends`,
  requestSent: msg`Request sent`,
  requestReceived: msg`Wants to be your friend`,
  blocked: msg`Blocked`,
};

/**
 * The last people met in text or video chat: a Next was not final, a friend request can still go.
 * How many and how far back is a perk of the member's tier, which the server applies.
 */
export function RecentPartnersSection() {
  const perks = perksOf(useAppSelector((s) => s.profile.premiumUser));
  const { data, isLoading, isError } = useGetRecentPartnersQuery(undefined, { refetchOnMountOrArgChange: true });
  const [ask] = useSendFriendRequestMutation();
  const [rate] = useRateMutation();
  const { i18n, t } = useLingui();
  const span = hoursInWords(i18n, perks.recentPartnerHours);
  const most = perks.recentPartners;

  async function request(p: RecentPartner) {
    const r = await ask(p.username);
    if ('error' in r) toast({ title: t`Request not sent`, description: describeApiError(r.error), variant: 'error' });
    else toast({ title: r.data.status === 'friends' ? t`You and ${p.username} are friends` : t`Friend request sent to ${p.username}` });
  }
  async function thumbs(p: RecentPartner, value: 'up' | 'down') {
    const r = await rate({ roomId: p.roomId, username: p.username, value });
    if ('error' in r) toast({ title: t`Rating not saved`, description: describeApiError(r.error), variant: 'error' });
  }
  const status = (p: RecentPartner) => {
    const when = metWhen(i18n, p.metAt);
    const how = p.kind === 'videoChat' ? t`Video chat, ${when}` : t`Text chat, ${when}`;
    const relation = RELATION_TEXT[p.relation];
    return relation ? `${how} · ${i18n._(relation)}` : how;
  };

  return (
    <Section title={t`Recent partners`} description={t`Up to ${most} people you met in the last ${span}.`}>
      {isLoading ? (
        <p role="status" className="text-sm text-slate-700">
          <Trans>Loading Content...</Trans>
        </p>
      ) : isError ? (
        <p className="text-sm text-slate-700">
          <Trans>The people you met could not be loaded. Check your connection.</Trans>
        </p>
      ) : !data?.length ? (
        <p className="text-sm text-slate-700">
          <Trans>Nobody yet. People you chat with appear here for {span}.</Trans>
        </p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label={t`Recent partners`}>
          {data.map((p) => (
            <PersonRow key={p.userId} username={p.username} avatar={p.avatar} nameStyle={p.nameStyle} status={status(p)}>
              {p.relation === 'none' || p.relation === 'requestReceived' ? (
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => void request(p)}
                  aria-label={t`Add ${p.username} as a friend`}
                >
                  <Trans>Add friend</Trans>
                </button>
              ) : null}
              {!p.rated && (
                <>
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() => void thumbs(p, 'up')}
                    aria-label={t`Thumbs up for ${p.username}`}
                  >
                    👍
                  </button>
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() => void thumbs(p, 'down')}
                    aria-label={t`Thumbs down for ${p.username}`}
                  >
                    👎
                  </button>
                </>
              )}
            </PersonRow>
          ))}
        </ul>
      )}
    </Section>
  );
}
