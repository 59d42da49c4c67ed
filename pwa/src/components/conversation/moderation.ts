import { useCallback } from 'react';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { roomEvents, type ModerateAnswer, type Moderation, type RoomMessage } from '@parley/contract/rooms';
import { emitSocketWithAck } from '../../realtime/socket';
import { toast } from '../../lib/toast';
import { ask } from '../ui/askDialog';
import type { ModeratorAction } from './MessageRow';

const ACK_TIMEOUT_MS = 8_000;
/** The longest reason a kick or ban may carry (the contract's limit). */
export const REASON_MAX = 200;

/** Refusals of a moderation by code, in the interface language (the server's words are English). */
const REFUSALS: Record<string, MessageDescriptor> = {
  not_moderator: msg`Only the owner and moderators can do this.`,
  not_owner: msg`Only the owner can do this.`,
  rate_limited: msg`Too many moderation actions. Wait a moment and try again.`,
  not_member: msg`That person is not here.`,
  unknown_user: msg`There is no such person.`,
  closed: msg`This room is closed.`,
  outranked: msg`You cannot do this to the owner or a fellow moderator.`,
};

/** How long a moderator may mute someone for, from a message's actions. */
export const MUTES: ReadonlyArray<readonly [number, MessageDescriptor]> = [
  [10, msg`10 min`],
  [60, msg`1 hour`],
  [24 * 60, msg`1 day`],
];

/**
 * Moderation of a room of any kind (`room:moderate`): resolves with the refusal's words, or null
 * when it was done. What it did shows in the room itself (a notice, the people list, a message gone).
 */
export function useModerate(roomId: string) {
  return useCallback(
    async (m: Moderation): Promise<string | null> => {
      try {
        const ack = await emitSocketWithAck<ModerateAnswer>(roomEvents.moderate, { roomId, ...m }, ACK_TIMEOUT_MS);
        if (ack.ok) return null;
        const known = REFUSALS[ack.code];
        return known ? i18n._(known) : ack.message;
      } catch {
        return i18n._(msg`You are offline. Try again once you are back.`);
      }
    },
    [roomId],
  );
}

/** Runs a moderation and says a refusal (the server decides who outranks whom). */
export function say(done: Promise<string | null>) {
  void done.then((problem) => problem && toast({ title: i18n._(msg`Not done`), description: problem, variant: 'error' }));
}

/** Asks why in the app's dialog (the person removed reads it); null when the moderator cancels. */
export async function askRemovalReason(action: 'kick' | 'ban', name: string): Promise<string | null> {
  const kick = action === 'kick';
  const answer = await ask({
    title: kick ? i18n._(msg`Remove ${name} from this room?`) : i18n._(msg`Ban ${name} from this room?`),
    description: kick
      ? i18n._(msg`They leave the room now and can join it again later.`)
      : i18n._(msg`They leave the room now and cannot come back.`),
    confirmLabel: kick ? i18n._(msg`Remove`) : i18n._(msg`Ban`),
    danger: true,
    reason: { label: i18n._(msg`Reason (optional)`), hint: i18n._(msg`${name} will see this.`), maxLength: REASON_MAX },
  });
  return answer ? answer.reason : null;
}

/**
 * What a moderator can do to the author of a message, the same in every kind of room: mute for a
 * while, kick (where the kind has it), ban with a reason they see, and for the owner (a stream's
 * broadcaster) appoint or dismiss them as moderator, where the page has no people list for it.
 */
export function messageModeration(
  m: RoomMessage,
  act: (m: Moderation) => void,
  offers: { kick: boolean; appoint?: { isModerator: boolean } | undefined },
): ModeratorAction[] {
  const name = m.senderName;
  const removal = (action: 'kick' | 'ban') => () =>
    void askRemovalReason(action, name).then((reason) => {
      if (reason !== null) act({ action, userId: m.senderId, reason });
    });
  const appoint = offers.appoint;
  return [
    ...MUTES.map(([minutes, label]) => {
      const span = i18n._(label);
      return { label: i18n._(msg`Mute ${name} ${span}`), run: () => act({ action: 'mute', userId: m.senderId, minutes }) };
    }),
    ...(offers.kick ? [{ label: i18n._(msg`Kick ${name}`), run: removal('kick') }] : []),
    { label: i18n._(msg`Ban ${name}`), danger: true, run: removal('ban') },
    ...(appoint
      ? [
          {
            label: appoint.isModerator ? i18n._(msg`Unmod ${name}`) : i18n._(msg`Mod ${name}`),
            name: appoint.isModerator ? i18n._(msg`Remove ${name} as moderator`) : i18n._(msg`Make ${name} a moderator`),
            run: () => act({ action: appoint.isModerator ? 'dismiss' : 'appoint', userId: m.senderId }),
          },
        ]
      : []),
  ];
}
