import { perksOf } from '@parley/contract/billing';
import type { RecentPartner } from '@parley/contract/people';
import { useAppSelector } from '../../app/hooks';
import { describeApiError } from '../../lib/apiError';
import { hoursInWords } from '../../lib/hoursInWords';
import { toast } from '../../lib/toast';
import { useGetRecentPartnersQuery, useRateMutation, useSendFriendRequestMutation } from './peopleApi';
import { PersonRow } from './components/PersonRow';
import { Section, secondaryButton } from './components/Section';

const ago = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
function metWhen(iso: string) {
  const minutes = Math.round((new Date(iso).getTime() - Date.now()) / 60_000);
  return Math.abs(minutes) < 60 ? ago.format(minutes, 'minute') : ago.format(Math.round(minutes / 60), 'hour');
}

const RELATION_TEXT: Partial<Record<RecentPartner['relation'], string>> = {
  friend: 'Friends',
  requestSent: 'Request sent',
  requestReceived: 'Wants to be your friend',
  blocked: 'Blocked',
};

/**
 * The last people met in text or video chat: a Next was not final, a friend request can still go.
 * How many and how far back is a perk of the member's tier, which the server applies.
 */
export function RecentPartnersSection() {
  const perks = perksOf(useAppSelector((s) => s.profile.premiumUser));
  const { data, isLoading } = useGetRecentPartnersQuery(undefined, { refetchOnMountOrArgChange: true });
  const [ask] = useSendFriendRequestMutation();
  const [rate] = useRateMutation();

  async function request(p: RecentPartner) {
    const r = await ask(p.username);
    if ('error' in r) toast({ title: 'Request not sent', description: describeApiError(r.error), variant: 'error' });
    else toast({ title: r.data.status === 'friends' ? `You and ${p.username} are friends` : `Friend request sent to ${p.username}` });
  }
  async function thumbs(p: RecentPartner, value: 'up' | 'down') {
    const r = await rate({ roomId: p.roomId, username: p.username, value });
    if ('error' in r) toast({ title: 'Rating not saved', description: describeApiError(r.error), variant: 'error' });
  }

  return (
    <Section
      title="Recent partners"
      description={`Up to ${perks.recentPartners} people you met in the last ${hoursInWords(perks.recentPartnerHours)}.`}
    >
      {isLoading ? (
        <p className="text-sm text-slate-700">Loading Content...</p>
      ) : !data?.length ? (
        <p className="text-sm text-slate-700">Nobody yet. People you chat with appear here for {hoursInWords(perks.recentPartnerHours)}.</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Recent partners">
          {data.map((p) => (
            <PersonRow
              key={p.userId}
              username={p.username}
              avatar={p.avatar}
              nameStyle={p.nameStyle}
              status={`${p.kind === 'videoChat' ? 'Video' : 'Text'} chat, ${metWhen(p.metAt)}${RELATION_TEXT[p.relation] ? ` · ${RELATION_TEXT[p.relation]}` : ''}`}
            >
              {p.relation === 'none' || p.relation === 'requestReceived' ? (
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => void request(p)}
                  aria-label={`Add ${p.username} as a friend`}
                >
                  Add friend
                </button>
              ) : null}
              {!p.rated && (
                <>
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() => void thumbs(p, 'up')}
                    aria-label={`Thumbs up for ${p.username}`}
                  >
                    👍
                  </button>
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() => void thumbs(p, 'down')}
                    aria-label={`Thumbs down for ${p.username}`}
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
