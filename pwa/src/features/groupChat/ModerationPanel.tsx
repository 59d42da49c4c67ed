import type { GroupDetail, Moderation } from '@parley/contract/groups';
import { focusRing, inputClass } from '../../components/FormField';
import { useModerationLogQuery } from './groupChatApi';

const button = `rounded-lg border border-slate-400 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 ${focusRing}`;
const SLOW_MODES = [0, 5, 10, 30, 60, 300];
const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** Room settings for the owner and moderators: slow mode, read-only, the invite link, the record of actions, closing. */
export function ModerationPanel({ room, act }: { room: GroupDetail; act(m: Moderation): void }) {
  const { data: log } = useModerationLogQuery(room.roomId);
  const inviteUrl = room.invite ? `${window.location.origin}/groupchat/${room.roomId}?invite=${encodeURIComponent(room.invite)}` : null;
  return (
    <div className="grid gap-3 text-sm text-slate-900">
      <div className="grid gap-1">
        <label htmlFor="slow-mode" className="font-medium">
          Slow mode
        </label>
        <select
          id="slow-mode"
          value={room.slowModeS}
          onChange={(e) => act({ action: 'slowMode', seconds: Number(e.target.value) })}
          className={inputClass}
        >
          {SLOW_MODES.map((s) => (
            <option key={s} value={s}>
              {s === 0 ? 'Off' : `${s} s between messages`}
            </option>
          ))}
        </select>
      </div>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={room.readOnly}
          onChange={(e) => act({ action: 'readOnly', on: e.target.checked })}
          className="size-5"
        />
        Read-only (only moderators write)
      </label>
      {inviteUrl && (
        <div className="grid gap-1">
          <label htmlFor="invite-link" className="font-medium">
            Invite link
          </label>
          <input id="invite-link" readOnly value={inviteUrl} className={inputClass} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className={button} onClick={() => act({ action: 'rotateInvite' })}>
            Make a new link (the old one stops working)
          </button>
        </div>
      )}
      {room.role === 'owner' && (
        <button
          type="button"
          className={`${button} border-red-300 text-red-800`}
          onClick={() => window.confirm('Close this room for everyone?') && act({ action: 'close' })}
        >
          Close the room
        </button>
      )}
      <details>
        <summary className={`cursor-pointer font-medium ${focusRing}`}>Moderation record</summary>
        <ol className="mt-2 grid gap-1">
          {(log?.entries ?? []).map((e) => (
            <li key={e.id} className="text-slate-700">
              <time dateTime={new Date(e.at).toISOString()}>{when.format(e.at)}</time>: {e.actor} {e.action}
              {e.target ? ` ${e.target}` : ''}
              {e.detail ? ` (${e.detail})` : ''}
            </li>
          ))}
          {log?.entries.length === 0 && <li className="text-slate-700">Nothing yet.</li>}
        </ol>
      </details>
    </div>
  );
}
