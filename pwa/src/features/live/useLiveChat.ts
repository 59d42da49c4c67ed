import { useCallback, useEffect, useState } from 'react';
import { liveEvents, type LiveAck, type LiveChatMessage } from '@parley/contract/live';
import { emitSocketWithAck, onSocketEvent } from '../../realtime/socket';

const ACK_TIMEOUT_MS = 8_000;

/** A stream's chat: its history and new messages, deletions, moderators, and the actions on it. */
export function useLiveChat(roomId: string, initial: { history: LiveChatMessage[]; moderators: string[]; muted: boolean } | null) {
  const [messages, setMessages] = useState<LiveChatMessage[]>([]);
  const [moderators, setModerators] = useState<string[]>([]);
  const [muted, setMuted] = useState(false);

  // A new join's history replaces what was shown (set while rendering, as React advises for derived state).
  const [seeded, setSeeded] = useState<typeof initial>(null);
  if (initial && initial !== seeded) {
    setSeeded(initial);
    setMessages(initial.history);
    setModerators(initial.moderators);
    setMuted(initial.muted);
  }

  useEffect(() => {
    const offs = [
      onSocketEvent(liveEvents.message, (m: LiveChatMessage) => {
        if (m.roomId === roomId) setMessages((list) => (list.some((x) => x.id === m.id) ? list : [...list, m]));
      }),
      onSocketEvent(liveEvents.deleteMessage, (d: { roomId: string; messageId: string }) => {
        if (d.roomId === roomId) setMessages((list) => list.filter((m) => m.id !== d.messageId));
      }),
      onSocketEvent(liveEvents.moderator, (d: { roomId: string; moderators: string[] }) => {
        if (d.roomId === roomId) setModerators(d.moderators);
      }),
      onSocketEvent(liveEvents.mute, (d: { roomId: string; muted: boolean }) => {
        if (d.roomId === roomId) setMuted(d.muted);
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [roomId]);

  /** Sends an event and answers with the refusal's message, or null when it was done. */
  const act = useCallback(
    async (event: string, payload: Record<string, unknown>): Promise<string | null> => {
      try {
        const ack = await emitSocketWithAck<LiveAck>(event, { roomId, ...payload }, ACK_TIMEOUT_MS);
        return ack.ok ? null : ack.message;
      } catch {
        return 'You are offline. Your message was not sent; try again once you are back.';
      }
    },
    [roomId],
  );

  return {
    messages,
    moderators,
    muted,
    send: (text: string) => act(liveEvents.message, { text }),
    remove: (messageId: string) => act(liveEvents.deleteMessage, { messageId }),
    mute: (userId: string, on: boolean) => act(liveEvents.mute, { userId, muted: on }),
    ban: (userId: string) => act(liveEvents.ban, { userId }),
    appoint: (userId: string, on: boolean) => act(liveEvents.moderator, { userId, moderator: on }),
  };
}
