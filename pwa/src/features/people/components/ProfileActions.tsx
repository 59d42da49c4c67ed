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
import { useFileReportMutation } from '../../../store/api';
import { ReportAction } from '../../../components/conversation/ReportAction';
import { reportOutcome } from '../../../realtime/reportEvidence';
import { ask as askConfirm } from '../../../components/ui/askDialog';
import { Trans, useLingui } from '@lingui/react/macro';

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
  const { t } = useLingui();
  const report = (result: { error?: unknown }, success?: string) => {
    if (result.error) toast({ title: t`That did not work`, description: describeApiError(result.error), variant: 'error' });
    else if (success) toast({ title: success });
  };
  async function confirmBlock() {
    const sure = await askConfirm({
      title: t`Block ${name}?`,
      description: t`You will not be matched or talk again, and a friendship ends.`,
      confirmLabel: t`Block`,
      danger: true,
    });
    if (sure) report(await block(name), t`${name} is blocked`);
  }

  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label={t`Actions for ${name}`}>
      {profile.relation === 'none' && (
        <button
          type="button"
          className={smallPrimary}
          disabled={asking.isLoading}
          onClick={() => void ask(name).then((r) => report(r, t`Friend request sent to ${name}`))}
        >
          <Trans>Add friend</Trans>
        </button>
      )}
      {profile.relation === 'requestReceived' && incoming && (
        <>
          <button
            type="button"
            className={smallPrimary}
            onClick={() =>
              void answer({ requestId: incoming.requestId, accept: true }).then((r) => report(r, t`You and ${name} are friends`))
            }
          >
            <Trans>Accept request</Trans>
          </button>
          <button
            type="button"
            className={secondaryButton}
            onClick={() => void answer({ requestId: incoming.requestId, accept: false }).then((r) => report(r))}
          >
            <Trans>Decline</Trans>
          </button>
        </>
      )}
      {profile.relation === 'requestSent' && outgoing && (
        <button
          type="button"
          className={secondaryButton}
          onClick={() => void cancel(outgoing.requestId).then((r) => report(r, t`Request cancelled`))}
        >
          <Trans>Cancel request</Trans>
        </button>
      )}
      {profile.relation === 'friend' && (
        <>
          <Link to={`/messages/${name}`} className={smallPrimary}>
            <Trans>Message</Trans>
          </Link>
          <button
            type="button"
            className={secondaryButton}
            onClick={() => void unfriend(name).then((r) => report(r, t`You and ${name} are no longer friends`))}
          >
            <Trans>Unfriend</Trans>
          </button>
        </>
      )}
      {profile.relation === 'blocked' ? (
        <button
          type="button"
          className={secondaryButton}
          onClick={() => void unblock(name).then((r) => report(r, t`${name} is unblocked`))}
        >
          <Trans>Unblock</Trans>
        </button>
      ) : (
        <button type="button" className={dangerButton} onClick={() => void confirmBlock()}>
          <Trans>Block</Trans>
        </button>
      )}
      <ReportAction
        partnerName={name}
        onSend={async (choice) => {
          const body = {
            reportedUserId: profile.userId,
            context: 'profile' as const,
            reason: choice.reason,
            block: choice.block,
            ...(choice.note.trim() ? { note: choice.note.trim() } : {}),
          };
          reportOutcome(choice, await fileReport(body));
        }}
      />
    </div>
  );
}
