import type { RoomMessage } from '@parley/contract/rooms';
import { DomainError } from '../platform/errors.ts';
import { outranks, type Role } from '../rooms/roles.ts';
import type { memoryLog } from '../rooms/memoryLog.ts';

type Log = ReturnType<typeof memoryLog>;

/**
 * Who may say what in one stream's chat (a room of kind `live`): the broadcaster owns it, the
 * moderators they appoint keep it pleasant, mutes and bans last for the stream's lifetime. The
 * messages themselves are the room core's (a held log, like every kind's); posting, deleting and
 * reacting go through it.
 */
export class LiveChat {
  private readonly moderators = new Set<string>();
  private readonly muted = new Set<string>();
  private readonly banned = new Set<string>();

  constructor(
    private readonly roomId: string,
    private readonly broadcasterId: string,
    private readonly log: Log,
  ) {}

  /** A gift shown in the chat, once per giver's key (a retried gift is the same message); `fresh` is false for a retry. */
  async gift(user: { userId: string; username: string }, amount: number, key: string): Promise<{ message: RoomMessage; fresh: boolean }> {
    const before = this.log.lastId(this.roomId);
    const message = await this.log.insert({
      roomId: this.roomId,
      senderId: user.userId,
      senderName: user.username,
      text: `sent ${amount} gold`,
      clientId: `gift:${key}`,
      mentions: [],
      gift: amount,
    });
    return { message: message!, fresh: message!.id > before };
  }

  history(): readonly RoomMessage[] {
    return this.log.all(this.roomId);
  }

  roleOf(userId: string): Role {
    return userId === this.broadcasterId ? 'owner' : this.moderators.has(userId) ? 'moderator' : 'member';
  }

  canModerate(userId: string): boolean {
    return this.roleOf(userId) !== 'member';
  }

  mute(by: string, userId: string, muted: boolean): void {
    this.protect(by, userId);
    if (muted) this.muted.add(userId);
    else this.muted.delete(userId);
  }

  /** Out of the chat for the stream's lifetime; what they wrote leaves with them (answered as it now reads). */
  ban(by: string, userId: string): RoomMessage[] {
    this.protect(by, userId);
    this.banned.add(userId);
    this.moderators.delete(userId);
    return this.log.removeFrom(this.roomId, userId);
  }

  setModerator(userId: string, moderator: boolean): string[] {
    if (userId === this.broadcasterId)
      throw new DomainError('invalid', 'The broadcaster moderates their stream already.', 'is_broadcaster');
    if (moderator) this.moderators.add(userId);
    else this.moderators.delete(userId);
    return this.moderatorIds();
  }

  moderatorIds(): string[] {
    return [...this.moderators];
  }

  isMuted(userId: string): boolean {
    return this.muted.has(userId);
  }

  isBanned(userId: string): boolean {
    return this.banned.has(userId);
  }

  /** Only the broadcaster and their moderators moderate, and never someone of their rank or above. */
  private protect(by: string, userId: string) {
    if (!this.canModerate(by))
      throw new DomainError('forbidden', 'Only the broadcaster and their moderators can do that.', 'not_moderator');
    if (!outranks(this.roleOf(by), this.roleOf(userId)))
      throw new DomainError('forbidden', 'You cannot do that to this person.', 'protected');
  }
}
