import { useEffect, useRef } from 'react';
import { useGetRecentPartnersQuery, useRateMutation, useSendFriendRequestMutation } from '../../../app/api';
import { focusRing } from '../../../components/FormField';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';

const button = `rounded-lg border border-slate-400 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-100 disabled:opacity-60 ${focusRing}`;

/**
 * During and after a chat: send the partner a friend request, and rate them once for this room
 * (thumbs up or down). The room comes from the recent partners the server recorded at the match.
 */
export function PartnerActions({ username }: { username: string }) {
  const { data, refetch } = useGetRecentPartnersQuery(undefined, { refetchOnMountOrArgChange: true });
  const [ask, asking] = useSendFriendRequestMutation();
  const [rate, rating] = useRateMutation();
  const partner = data?.find((p) => p.username === username);
  const tries = useRef(0);

  // The match is recorded as the room opens: a look made just before it finds nobody yet.
  useEffect(() => {
    if (!data || partner || tries.current >= 3) return;
    tries.current += 1;
    const t = setTimeout(() => void refetch(), 1000);
    return () => clearTimeout(t);
  }, [data, partner, refetch]);

  if (!partner) return null;
  const canAsk = partner.relation === 'none' || partner.relation === 'requestReceived';
  const said = partner.relation === 'friend' ? 'You are friends' : partner.relation === 'requestSent' ? 'Friend request sent' : null;

  return (
    <div
      role="group"
      aria-label={`What to do about ${username}`}
      className="mx-auto mb-4 flex max-w-md flex-wrap items-center justify-center gap-2"
    >
      {canAsk && (
        <button
          type="button"
          className={button}
          disabled={asking.isLoading}
          onClick={() =>
            void ask(username).then((r) =>
              toast(
                'error' in r
                  ? { title: 'Request not sent', description: describeApiError(r.error), variant: 'error' }
                  : { title: `Friend request sent to ${username}` },
              ),
            )
          }
        >
          Add friend
        </button>
      )}
      {said && <span className="text-sm text-slate-700">{said}</span>}
      {!partner.rated &&
        (['up', 'down'] as const).map((value) => (
          <button
            key={value}
            type="button"
            className={button}
            disabled={rating.isLoading}
            aria-label={`Thumbs ${value} for ${username}`}
            onClick={() =>
              void rate({ roomId: partner.roomId, username, value }).then(
                (r) => 'error' in r && toast({ title: 'Rating not saved', description: describeApiError(r.error), variant: 'error' }),
              )
            }
          >
            {value === 'up' ? '👍' : '👎'}
          </button>
        ))}
      {partner.rated && <span className="text-sm text-slate-700">Rated, thank you</span>}
    </div>
  );
}
