import { useCallback } from 'react';
import { roomEvents, type ModerateAnswer, type Moderation, type RoomMessage } from '@parley/contract/rooms';
import { emitSocketWithAck } from '../../realtime/socket';
import { toast } from '../../lib/toast';
import type { ModeratorAction } from './MessageRow';

const ACK_TIMEOUT_MS = 8_000;

/** How long a moderator may mute someone for, from a message's actions. */
export const MUTES = [
  [10, '10 min'],
  [60, '1 hour'],
  [24 * 60, '1 day'],
] as const;

/**
 * Moderation of a room of any kind (`room:moderate`): resolves with the refusal's words, or null
 * when it was done. What it did shows in the room itself (a notice, the people list, a message gone).
 */
export function useModerate(roomId: string) {
  return useCallback(
    async (m: Moderation): Promise<string | null> => {
      try {
        const ack = await emitSocketWithAck<ModerateAnswer>(roomEvents.moderate, { roomId, ...m }, ACK_TIMEOUT_MS);
        return ack.ok ? null : ack.message;
      } catch {
        return 'You are offline. Try again once you are back.';
      }
    },
    [roomId],
  );
}

/** Runs a moderation and says a refusal (the server decides who outranks whom). */
export function say(done: Promise<string | null>) {
  void done.then((problem) => problem && toast({ title: 'Not done', description: problem, variant: 'error' }));
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
  const removal = (action: 'kick' | 'ban') => () => {
    const reason = window.prompt(`Why ${action === 'kick' ? 'remove' : 'ban'} ${m.senderName}? (they will see this)`, '');
    if (reason !== null) act({ action, userId: m.senderId, reason });
  };
  const appoint = offers.appoint;
  return [
    ...MUTES.map(([minutes, label]) => ({
      label: `Mute ${m.senderName} ${label}`,
      run: () => act({ action: 'mute', userId: m.senderId, minutes }),
    })),
    ...(offers.kick ? [{ label: `Kick ${m.senderName}`, run: removal('kick') }] : []),
    { label: `Ban ${m.senderName}`, danger: true, run: removal('ban') },
    ...(appoint
      ? [
          {
            label: appoint.isModerator ? `Unmod ${m.senderName}` : `Mod ${m.senderName}`,
            name: appoint.isModerator ? `Remove ${m.senderName} as moderator` : `Make ${m.senderName} a moderator`,
            run: () => act({ action: appoint.isModerator ? 'dismiss' : 'appoint', userId: m.senderId }),
          },
        ]
      : []),
  ];
}
