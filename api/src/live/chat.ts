import { randomUUID } from 'node:crypto';
import { LIVE_CHAT_HISTORY, LIVE_CHAT_PER_WINDOW, LIVE_CHAT_WINDOW_MS, type LiveChatMessage } from '@parley/contract/live';
import { DomainError } from '../platform/errors.ts';

/**
 * The chat of one stream (a room of kind `live`): history for the stream's lifetime (the last
 * LIVE_CHAT_HISTORY messages), a per-user allowance, and moderation by the broadcaster and the
 * moderators they appoint.
 */
export class LiveChat {
  private readonly messages: LiveChatMessage[] = [];
  private readonly moderators = new Set<string>();
  private readonly muted = new Set<string>();
  private readonly banned = new Set<string>();
  private readonly sent = new Map<string, number[]>();
  /** Gift messages by the giver's idempotency key: a retried gift is shown once. */
  private readonly gifts = new Map<string, LiveChatMessage>();

  constructor(
    private readonly roomId: string,
    private readonly broadcasterId: string,
    private readonly now: () => number,
  ) {}

  /** `emoji`: the text's shortcodes the server checked the sender owns. */
  send(user: { userId: string; username: string }, text: string, emoji?: string[]): LiveChatMessage {
    if (this.banned.has(user.userId)) throw new DomainError('forbidden', 'The broadcaster removed you from this chat.', 'banned');
    if (this.muted.has(user.userId)) throw new DomainError('forbidden', 'A moderator muted you in this chat.', 'muted');
    const t = this.now();
    const recent = (this.sent.get(user.userId) ?? []).filter((at) => t - at < LIVE_CHAT_WINDOW_MS);
    if (recent.length >= LIVE_CHAT_PER_WINDOW) {
      const retryAfterS = Math.ceil((LIVE_CHAT_WINDOW_MS - (t - recent[0]!)) / 1000);
      throw new DomainError('too_many', `You are sending messages too fast. Wait ${retryAfterS} s.`, 'rate_limited', retryAfterS);
    }
    recent.push(t);
    this.sent.set(user.userId, recent);
    const message: LiveChatMessage = {
      id: randomUUID(),
      roomId: this.roomId,
      userId: user.userId,
      username: user.username,
      text,
      sentAt: t,
      ...(emoji && emoji.length > 0 && { emoji }),
    };
    this.messages.push(message);
    if (this.messages.length > LIVE_CHAT_HISTORY) this.messages.shift();
    return message;
  }

  /** A gift shown in the chat, once per giver's key; `fresh` is false for a retry. */
  gift(user: { userId: string; username: string }, amount: number, key: string): { message: LiveChatMessage; fresh: boolean } {
    const seen = this.gifts.get(`${user.userId}:${key}`);
    if (seen) return { message: seen, fresh: false };
    const message: LiveChatMessage = {
      id: randomUUID(),
      roomId: this.roomId,
      userId: user.userId,
      username: user.username,
      text: `sent ${amount} gold`,
      sentAt: this.now(),
      gift: amount,
    };
    this.gifts.set(`${user.userId}:${key}`, message);
    this.messages.push(message);
    if (this.messages.length > LIVE_CHAT_HISTORY) this.messages.shift();
    return { message, fresh: true };
  }

  history(): LiveChatMessage[] {
    return [...this.messages];
  }

  canModerate(userId: string): boolean {
    return userId === this.broadcasterId || this.moderators.has(userId);
  }

  delete(by: string, messageId: string): void {
    this.requireModerator(by);
    const at = this.messages.findIndex((m) => m.id === messageId);
    if (at < 0) throw new DomainError('not_found', 'That message is no longer in the chat.', 'message_not_found');
    this.messages.splice(at, 1);
  }

  mute(by: string, userId: string, muted: boolean): void {
    this.requireModerator(by);
    this.protect(by, userId);
    if (muted) this.muted.add(userId);
    else this.muted.delete(userId);
  }

  ban(by: string, userId: string): void {
    this.requireModerator(by);
    this.protect(by, userId);
    this.banned.add(userId);
    this.moderators.delete(userId);
    // What they wrote leaves with them.
    for (let i = this.messages.length - 1; i >= 0; i--) if (this.messages[i]!.userId === userId) this.messages.splice(i, 1);
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

  private requireModerator(userId: string) {
    if (!this.canModerate(userId))
      throw new DomainError('forbidden', 'Only the broadcaster and their moderators can do that.', 'not_moderator');
  }

  /** Nobody moderates the broadcaster, and a moderator cannot silence another moderator. */
  private protect(by: string, userId: string) {
    if (userId === this.broadcasterId || (this.moderators.has(userId) && by !== this.broadcasterId)) {
      throw new DomainError('forbidden', 'You cannot do that to this person.', 'protected');
    }
  }
}
