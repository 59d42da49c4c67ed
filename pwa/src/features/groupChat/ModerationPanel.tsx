import type { GroupDetail, Moderation, ModerationEntry } from '@parley/contract/groups';
import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { focusRing, inputClass } from '../../components/FormField';
import { useModerationLogQuery } from './groupChatApi';

const button = `rounded-lg border border-slate-400 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 ${focusRing}`;
const SLOW_MODES = [0, 5, 10, 30, 60, 300];
// In the interface language's conventions (Lingui keeps one formatter per locale and options).
const when = { dateStyle: 'short', timeStyle: 'short' } as const;

/** The number at the start of a record's detail ("5 min", "30 s"), or null. */
const amountIn = (detail: string) => (/^\d+/.test(detail) ? Number.parseInt(detail, 10) : null);

/** One line of the moderation record, in the interface language; a reason given stays as written. */
function describeEntry(e: ModerationEntry, i18n: I18n): string {
  const actor = e.actor;
  const target = e.target ?? '';
  const amount = amountIn(e.detail) ?? 0;
  switch (e.action) {
    case 'removeMessage':
      return i18n._(msg`${actor} removed a message by ${target}`);
    case 'mute':
      return i18n._(msg`${actor} muted ${target} for ${plural(amount, { one: '# minute', other: '# minutes' })}`);
    case 'unmute':
      return i18n._(msg`${actor} unmuted ${target}`);
    case 'kick':
      return e.detail ? i18n._(msg`${actor} removed ${target} (${e.detail})`) : i18n._(msg`${actor} removed ${target}`);
    case 'ban':
      return e.detail ? i18n._(msg`${actor} banned ${target} (${e.detail})`) : i18n._(msg`${actor} banned ${target}`);
    case 'unban':
      return i18n._(msg`${actor} lifted the ban on ${target}`);
    case 'appoint':
      return i18n._(msg`${actor} made ${target} a moderator`);
    case 'dismiss':
      return i18n._(msg`${actor} dismissed ${target} as moderator`);
    case 'slowMode':
      return amount === 0
        ? i18n._(msg`${actor} turned slow mode off`)
        : i18n._(msg`${actor} set slow mode to ${plural(amount, { one: '# second', other: '# seconds' })} between messages`);
    case 'readOnly':
      return e.detail === 'on'
        ? i18n._(msg`${actor} made the room read-only`)
        : i18n._(msg`${actor} opened the room to everyone's messages`);
    case 'transfer':
      return i18n._(msg`${actor} handed the room to ${target}`);
    case 'close':
      return i18n._(msg`${actor} closed the room`);
    case 'rotateInvite':
      return i18n._(msg`${actor} made a new invite link`);
    default:
      return `${actor} ${String(e.action)}`;
  }
}

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
          onClick={() => window.confirm(t`Close this room for everyone?`) && act({ action: 'close' })}
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
