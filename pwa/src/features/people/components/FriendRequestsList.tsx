import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useAnswerFriendRequestMutation, useCancelFriendRequestMutation, useGetFriendRequestsQuery } from '../peopleApi';
import { PersonRow } from './PersonRow';
import { secondaryButton, smallPrimary } from './Section';

const failed = (error: unknown) => toast({ title: 'That did not work', description: describeApiError(error), variant: 'error' });

/** Requests waiting for my answer (accept, decline) and mine waiting for theirs (cancel). */
export function FriendRequestsList() {
  const { data } = useGetFriendRequestsQuery();
  const [answer] = useAnswerFriendRequestMutation();
  const [cancel] = useCancelFriendRequestMutation();
  if (!data || (data.incoming.length === 0 && data.outgoing.length === 0))
    return <p className="text-sm text-slate-700">No friend requests waiting.</p>;
  return (
    <div className="grid gap-4">
      {data.incoming.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold text-slate-800">Waiting for your answer</h3>
          <ul className="divide-y divide-slate-100">
            {data.incoming.map((r) => (
              <PersonRow key={r.requestId} username={r.from.username} avatar={r.from.avatar} status="wants to be your friend">
                <button
                  type="button"
                  className={smallPrimary}
                  onClick={() =>
                    void answer({ requestId: r.requestId, accept: true }).then((x) =>
                      'error' in x ? failed(x.error) : toast({ title: `You and ${r.from.username} are friends` }),
                    )
                  }
                >
                  Accept
                </button>
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => void answer({ requestId: r.requestId, accept: false }).then((x) => 'error' in x && failed(x.error))}
                >
                  Decline
                </button>
              </PersonRow>
            ))}
          </ul>
        </div>
      )}
      {data.outgoing.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold text-slate-800">Sent by you</h3>
          <ul className="divide-y divide-slate-100">
            {data.outgoing.map((r) => (
              <PersonRow key={r.requestId} username={r.to.username} avatar={r.to.avatar} status="waiting for an answer">
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => void cancel(r.requestId).then((x) => 'error' in x && failed(x.error))}
                >
                  Cancel
                </button>
              </PersonRow>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
