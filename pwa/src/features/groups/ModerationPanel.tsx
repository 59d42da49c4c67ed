import type { GroupDetail, Moderation } from '@parley/contract/groups';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { focusRing } from '../../components/ui/buttonStyles';
import { inputClass } from '../../components/ui/Field';
import { useModerationLogQuery } from './groupChatApi';
import { describeEntry, SLOW_MODES, when } from '../../components/conversation/moderationRecord';
import { ask } from '../../components/ui/askDialog';

const button = `rounded-lg border border-slate-400 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 ${focusRing}`;

/** Room settings for the owner and moderators: slow mode, read-only, the invite link, the record of actions, closing. */
export function ModerationPanel({ room, act }: { room: GroupDetail; act(m: Moderation): void }) {
  const { i18n, t } = useLingui();
  const { data: log } = useModerationLogQuery(room.roomId);
  const inviteUrl = room.invite ? `${window.location.origin}/groupchat/${room.roomId}?invite=${encodeURIComponent(room.invite)}` : null;
  return (
    <div className="grid gap-3 text-sm text-slate-900">
      <div className="grid gap-1">
        <label htmlFor="slow-mode" className="font-medium">
          <Trans>Slow mode</Trans>
        </label>
        <select
          id="slow-mode"
          value={room.slowModeS}
          onChange={(e) => act({ action: 'slowMode', seconds: Number(e.target.value) })}
          className={inputClass}
        >
          {SLOW_MODES.map((s) => (
            <option key={s} value={s}>
              {s === 0 ? t`Off` : t`${plural(s, { one: '# second between messages', other: '# seconds between messages' })}`}
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
        <Trans>Read-only (only moderators write)</Trans>
      </label>
      {inviteUrl && (
        <div className="grid gap-1">
          <label htmlFor="invite-link" className="font-medium">
            <Trans>Invite link</Trans>
          </label>
          <input id="invite-link" readOnly value={inviteUrl} className={inputClass} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className={button} onClick={() => act({ action: 'rotateInvite' })}>
            <Trans>Make a new link (the old one stops working)</Trans>
          </button>
        </div>
      )}
      {room.role === 'owner' && (
        <button
          type="button"
          className={`${button} border-red-300 text-red-800`}
          onClick={() =>
            void ask({ title: t`Close this room for everyone?`, confirmLabel: t`Close the room`, danger: true }).then(
              (answer) => answer && act({ action: 'close' }),
            )
          }
        >
          <Trans>Close the room</Trans>
        </button>
      )}
      <details>
        <summary className={`cursor-pointer font-medium ${focusRing}`}>
          <Trans>Moderation record</Trans>
        </summary>
        <ol className="mt-2 grid gap-1">
          {(log?.entries ?? []).map((e) => (
            <li key={e.id} className="text-slate-700">
              <time dateTime={new Date(e.at).toISOString()}>{i18n.date(new Date(e.at), when)}</time>
              {t({ message: ': ', context: 'between a time and what happened then' })}
              {describeEntry(e, i18n)}
            </li>
          ))}
          {log?.entries.length === 0 && (
            <li className="text-slate-700">
              <Trans>Nothing yet.</Trans>
            </li>
          )}
        </ol>
      </details>
    </div>
  );
}
