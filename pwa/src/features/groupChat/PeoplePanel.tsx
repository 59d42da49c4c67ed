import type { RoomMemberView } from '@parley/contract/rooms';
import { Avatar } from '../../components/Avatar';
import { focusRing } from '../../components/FormField';
import { ReportAction } from '../../components/conversation/ReportAction';
import type { ReportChoice } from '../../realtime/reportEvidence';

const roleLabel = { owner: 'Owner', moderator: 'Moderator', member: null } as const;
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
  return (
    <ul aria-label="People in the room" className="grid gap-2">
      {people.map((p) => (
        <li key={p.userId} className="flex flex-wrap items-center gap-2">
          <Avatar name={p.username} src={p.avatar || null} size={32} />
          <span className="min-w-0 flex-1 truncate text-sm text-slate-900">
            {p.username}
            {p.userId === myId && ' (you)'}
          </span>
          {roleLabel[p.role] && (
            <span className="rounded bg-indigo-100 px-1.5 py-0.5 text-xs font-semibold text-indigo-900">{roleLabel[p.role]}</span>
          )}
          {p.userId !== myId && (
            <ReportAction
              tone="menu"
              partnerName={p.username}
              subject={p.username}
              evidence="The room's latest messages go with the report, so our team can see what happened."
              onSend={(choice) => onReport(p, choice)}
            />
          )}
          {iOwn && p.userId !== myId && (
            <div className="flex w-full flex-wrap justify-end gap-1">
              <button
                type="button"
                aria-label={p.role === 'member' ? `Make ${p.username} moderator` : `Dismiss ${p.username} as moderator`}
                className={small}
                onClick={() => onAppoint(p, p.role === 'member')}
              >
                {p.role === 'member' ? 'Make moderator' : 'Dismiss moderator'}
              </button>
              <button type="button" aria-label={`Hand room to ${p.username}`} className={small} onClick={() => onTransfer(p)}>
                Hand room over
              </button>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
