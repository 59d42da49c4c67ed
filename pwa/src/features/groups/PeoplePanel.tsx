import type { RoomMemberView } from '@parley/contract/rooms';
import { Avatar } from '../../components/Avatar';
import { focusRing } from '../../components/ui/buttonStyles';
import { ReportAction } from '../../components/conversation/ReportAction';
import type { ReportChoice } from '../../realtime/reportEvidence';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const roleLabel = { owner: msg`Owner`, moderator: msg`Moderator`, member: null } as const;
const small = `rounded px-2 py-1 text-xs font-semibold text-indigo-800 underline ${focusRing}`;

/** The people in the room now, owner and moderators marked; the owner appoints moderators and hands the room over here. */
export function PeoplePanel({
  people,
  myId,
  iOwn,
  onAppoint,
  onTransfer,
  onReport,
}: {
  people: RoomMemberView[];
  myId: string;
  iOwn: boolean;
  onAppoint(p: RoomMemberView, appoint: boolean): void;
  onTransfer(p: RoomMemberView): void;
  /** Reports a person in the room (the room's latest messages go with it); rejects with a readable Error. */
  onReport(p: RoomMemberView, choice: ReportChoice): Promise<void>;
}) {
  const { i18n, t } = useLingui();
  return (
    <ul aria-label={t`People in the room`} className="grid gap-2">
      {people.map((p) => {
        const role = roleLabel[p.role];
        return (
          <li key={p.userId} className="flex flex-wrap items-center gap-2">
            <Avatar name={p.username} src={p.avatar || null} size={32} />
            <span className="min-w-0 flex-1 truncate text-sm text-slate-900">
              {p.username}
              {p.userId === myId && (
                <>
                  {' '}
                  <Trans>(you)</Trans>
                </>
              )}
            </span>
            {role && <span className="rounded bg-indigo-100 px-1.5 py-0.5 text-xs font-semibold text-indigo-900">{i18n._(role)}</span>}
            {p.userId !== myId && (
              <ReportAction
                tone="menu"
                partnerName={p.username}
                subject={p.username}
                evidence={t`The room's latest messages go with the report, so our team can see what happened.`}
                onSend={(choice) => onReport(p, choice)}
              />
            )}
            {iOwn && p.userId !== myId && (
              <div className="flex w-full flex-wrap justify-end gap-1">
                <button
                  type="button"
                  aria-label={p.role === 'member' ? t`Make ${p.username} moderator` : t`Dismiss ${p.username} as moderator`}
                  className={small}
                  onClick={() => onAppoint(p, p.role === 'member')}
                >
                  {p.role === 'member' ? t`Make moderator` : t`Dismiss moderator`}
                </button>
                <button type="button" aria-label={t`Hand room to ${p.username}`} className={small} onClick={() => onTransfer(p)}>
                  <Trans>Hand room over</Trans>
                </button>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
