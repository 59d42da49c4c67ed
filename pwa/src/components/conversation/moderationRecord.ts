import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import type { ModerationEntry } from '@parley/contract/rooms';

/** Slow mode's choices, in seconds between one person's messages, wherever a room has it (groups, streams). */
export const SLOW_MODES = [0, 5, 10, 30, 60, 300];
/** A record's times, in the interface language's conventions (Lingui keeps one formatter per locale and options). */
export const when = { dateStyle: 'short', timeStyle: 'short' } as const;

/** The number at the start of a record's detail ("5 min", "30 s"), or null. */
const amountIn = (detail: string) => (/^\d+/.test(detail) ? Number.parseInt(detail, 10) : null);

/** One line of the moderation record, in the interface language; a reason given stays as written. */
export function describeEntry(e: ModerationEntry, i18n: I18n): string {
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
