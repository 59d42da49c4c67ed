import { Link } from 'react-router-dom';
import type { UserProfile } from '@parley/contract/people';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import {
  useAnswerFriendRequestMutation,
  useBlockMutation,
  useCancelFriendRequestMutation,
  useGetFriendRequestsQuery,
  useSendFriendRequestMutation,
  useUnblockMutation,
  useUnfriendMutation,
} from '../peopleApi';
import { dangerButton, secondaryButton, smallPrimary } from './Section';
import { useFileReportMutation } from '../../../app/api';
import { ReportAction } from '../../../components/conversation/ReportAction';
import { reportOutcome } from '../../../realtime/reportEvidence';

const report = (result: { error?: unknown }, success?: string) => {
  if (result.error) toast({ title: 'That did not work', description: describeApiError(result.error), variant: 'error' });
  else if (success) toast({ title: success });
};

/** Add friend (or its answer, cancel, unfriend), Message, Block or Unblock, Report: what fits how we stand. */
export function ProfileActions({ profile }: { profile: UserProfile }) {
  const { data: requests } = useGetFriendRequestsQuery(undefined, {
    skip: profile.relation !== 'requestSent' && profile.relation !== 'requestReceived',
  });
  const [ask, asking] = useSendFriendRequestMutation();
  const [answer] = useAnswerFriendRequestMutation();
  const [cancel] = useCancelFriendRequestMutation();
  const [unfriend] = useUnfriendMutation();
  const [fileReport] = useFileReportMutation();
  const [block] = useBlockMutation();
  const [unblock] = useUnblockMutation();
  const name = profile.username;
  const incoming = requests?.incoming.find((r) => r.from.userId === profile.userId);
  const outgoing = requests?.outgoing.find((r) => r.to.userId === profile.userId);

  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label={`Actions for ${name}`}>
      {profile.relation === 'none' && (
        <button
          type="button"
          className={smallPrimary}
          disabled={asking.isLoading}
          onClick={() => void ask(name).then((r) => report(r, `Friend request sent to ${name}`))}
        >
          Add friend
        </button>
      )}
      {profile.relation === 'requestReceived' && incoming && (
        <>
          <button
            type="button"
            className={smallPrimary}
            onClick={() =>
              void answer({ requestId: incoming.requestId, accept: true }).then((r) => report(r, `You and ${name} are friends`))
            }
          >
            Accept request
          </button>
          <button
            type="button"
            className={secondaryButton}
            onClick={() => void answer({ requestId: incoming.requestId, accept: false }).then((r) => report(r))}
          >
            Decline
          </button>
        </>
      )}
      {profile.relation === 'requestSent' && outgoing && (
        <button
          type="button"
          className={secondaryButton}
          onClick={() => void cancel(outgoing.requestId).then((r) => report(r, 'Request cancelled'))}
        >
          Cancel request
        </button>
      )}
      {profile.relation === 'friend' && (
        <>
          <Link to={`/messages/${name}`} className={smallPrimary}>
            Message
          </Link>
          <button
            type="button"
            className={secondaryButton}
            onClick={() => void unfriend(name).then((r) => report(r, `You and ${name} are no longer friends`))}
          >
            Unfriend
          </button>
        </>
      )}
      {profile.relation === 'blocked' ? (
        <button type="button" className={secondaryButton} onClick={() => void unblock(name).then((r) => report(r, `${name} is unblocked`))}>
          Unblock
        </button>
      ) : (
        <button
          type="button"
          className={dangerButton}
          onClick={() => {
            if (window.confirm(`Block ${name}? You will not be matched or talk again, and a friendship ends.`))
              void block(name).then((r) => report(r, `${name} is blocked`));
          }}
        >
          Block
        </button>
      )}
      <ReportAction
        partnerName={name}
        onSend={async (choice) => {
          const body = { reportedUserId: profile.userId, context: 'profile' as const, reason: choice.reason, block: choice.block, ...(choice.note.trim() ? { note: choice.note.trim() } : {}) };
          reportOutcome(choice, await fileReport(body));
        }}
      />
    </div>
  );
}
