import { useCallback } from 'react';
import { roomEvents, type ModerateAnswer, type Moderation, type RoomMessage } from '@parley/contract/rooms';
import { emitSocketWithAck } from '../../realtime/socket';
import { toast } from '../../lib/toast';
import type { ModeratorAction } from './MessageRow';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

const ACK_TIMEOUT_MS = 8_000;

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
export const MUTES = [10, 60, 24 * 60] as const;

/** "Mute Ana 10 min" and the like, in the interface language. */
function muteLabel(minutes: (typeof MUTES)[number], name: string): string {
  if (minutes === 10) return i18n._(msg`Mute ${name} 10 min`);
  if (minutes === 60) return i18n._(msg`Mute ${name} 1 hour`);
  return i18n._(msg`Mute ${name} 1 day`);
}

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
  const removal = (action: 'kick' | 'ban') => () => {
    const question =
      action === 'kick' ? i18n._(msg`Why remove ${name}? (they will see this)`) : i18n._(msg`Why ban ${name}? (they will see this)`);
    const reason = window.prompt(question, '');
    if (reason !== null) act({ action, userId: m.senderId, reason });
  };
  const appoint = offers.appoint;
  return [
    ...MUTES.map((minutes) => ({
      label: muteLabel(minutes, name),
      run: () => act({ action: 'mute', userId: m.senderId, minutes }),
    })),
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
