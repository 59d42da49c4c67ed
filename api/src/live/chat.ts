import type { RoomMessage } from '@parley/contract/rooms';
import type { Role } from '../rooms/roles.ts';
import type { ModerationChange } from '../rooms/moderation.ts';
import type { memoryLog } from '../rooms/memoryLog.ts';
import type { ChannelState } from './channels.ts';

type Log = ReturnType<typeof memoryLog>;

/** A stream with no stored channel (the rules' tests): nobody moderates it but its broadcaster, and nothing is stored. */
export const UNSTORED_CHANNEL: ChannelState = { roomId: '', moderators: [], banned: [], muted: [], slowModeS: 0 };

/**
 * Who may say what in one stream's chat (a room of kind `live`): the broadcaster owns it, the
 * moderators of their channel keep it pleasant. Moderation itself is the rooms' (rooms/moderation.ts),
 * stored in the broadcaster's channel; this is the stream's copy of it, read on every post and
 * watch, loaded as the stream starts and following every change made while it lasts (all of
 * them run in the process holding the stream). The messages are the room core's held log.
 */
export class LiveChat {
  private readonly moderators: Map<string, { username: string; avatar: string }>;
  private readonly banned: Set<string>;
  private readonly muted: Map<string, number>;
  slowModeS: number;
  /** The stored room of the broadcaster's channel ('' when not stored). */
  readonly channelId: string;

  constructor(
    private readonly roomId: string,
    private readonly broadcasterId: string,
    private readonly log: Log,
    channel: ChannelState = UNSTORED_CHANNEL,
  ) {
    this.channelId = channel.roomId;
    this.moderators = new Map(channel.moderators.map((m) => [m.userId, { username: m.username, avatar: m.avatar }]));
    this.banned = new Set(channel.banned);
    this.muted = new Map(channel.muted.map((m) => [m.userId, m.mutedUntil]));
    this.slowModeS = channel.slowModeS;
  }

  history(): readonly RoomMessage[] {
    return this.log.all(this.roomId);
  }

  roleOf(userId: string): Role {
    return userId === this.broadcasterId ? 'owner' : this.moderators.has(userId) ? 'moderator' : 'member';
  }

  moderatorViews() {
    return [...this.moderators].map(([userId, m]) => ({ userId, ...m }));
  }

  /** Until when the user is muted here (epoch ms), or null. */
  mutedUntil(userId: string, now: number): number | null {
    const until = this.muted.get(userId);
    return until !== undefined && until > now ? until : null;
  }

  isBanned(userId: string): boolean {
    return this.banned.has(userId);
  }

  /** A change moderation stored in the channel: the copy follows it. A ban also takes their messages (answered as they now read). */
  follow(change: ModerationChange): RoomMessage[] {
    switch (change.action) {
      case 'mute':
        if (change.mutedUntil === null) this.muted.delete(change.userId);
        else this.muted.set(change.userId, change.mutedUntil);
        return [];
      case 'ban':
        this.banned.add(change.userId);
        this.moderators.delete(change.userId);
        return this.log.removeFrom(this.roomId, change.userId);
      case 'unban':
        this.banned.delete(change.userId);
        return [];
      case 'role':
        if (change.moderator) this.moderators.set(change.userId, { username: change.username, avatar: change.avatar });
        else this.moderators.delete(change.userId);
        return [];
      case 'settings':
        this.slowModeS = change.slowModeS;
        return [];
    }
  }
}
