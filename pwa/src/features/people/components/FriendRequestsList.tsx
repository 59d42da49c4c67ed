import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useAnswerFriendRequestMutation, useCancelFriendRequestMutation, useGetFriendRequestsQuery } from '../peopleApi';
import { PersonRow } from './PersonRow';
import { secondaryButton, smallPrimary } from './Section';
import { Trans, useLingui } from '@lingui/react/macro';

/** Requests waiting for my answer (accept, decline) and mine waiting for theirs (cancel). */
export function FriendRequestsList() {
  const { data, isLoading, isError } = useGetFriendRequestsQuery();
  const [answer] = useAnswerFriendRequestMutation();
  const [cancel] = useCancelFriendRequestMutation();
  const { t } = useLingui();
  const failed = (error: unknown) => toast({ title: t`That did not work`, description: describeApiError(error), variant: 'error' });

  if (isLoading)
    return (
      <p role="status" className="text-sm text-slate-700">
        <Trans>Loading Content...</Trans>
      </p>
    );
  if (!data)
    return (
      <p className="text-sm text-slate-700">
        {isError ? <Trans>Your friend requests could not be loaded. Check your connection.</Trans> : null}
      </p>
    );
  if (data.incoming.length === 0 && data.outgoing.length === 0)
    return (
      <p className="text-sm text-slate-700">
        <Trans>No friend requests waiting.</Trans>
      </p>
    );
  return (
    <div className="grid gap-4">
      {data.incoming.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold text-slate-800">
            <Trans>Waiting for your answer</Trans>
          </h3>
          <ul className="divide-y divide-slate-100">
            {data.incoming.map((r) => (
              <PersonRow key={r.requestId} username={r.from.username} avatar={r.from.avatar} status={t`wants to be your friend`}>
                <button
                  type="button"
                  className={smallPrimary}
                  onClick={() =>
                    void answer({ requestId: r.requestId, accept: true }).then((x) =>
                      'error' in x ? failed(x.error) : toast({ title: t`You and ${r.from.username} are friends` }),
                    )
                  }
                >
                  <Trans>Accept</Trans>
                </button>
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => void answer({ requestId: r.requestId, accept: false }).then((x) => 'error' in x && failed(x.error))}
                >
                  <Trans>Decline</Trans>
                </button>
              </PersonRow>
            ))}
          </ul>
        </div>
      )}
      {data.outgoing.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold text-slate-800">
            <Trans>Sent by you</Trans>
          </h3>
          <ul className="divide-y divide-slate-100">
            {data.outgoing.map((r) => (
              <PersonRow key={r.requestId} username={r.to.username} avatar={r.to.avatar} status={t`waiting for an answer`}>
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => void cancel(r.requestId).then((x) => 'error' in x && failed(x.error))}
                >
                  <Trans>Cancel</Trans>
                </button>
              </PersonRow>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
