import { describe, expect, it } from 'vitest';
import type { GroupSummary } from '@parley/contract/groups';
import type { UnreadNotice } from '@parley/contract/rooms';
import { withGroupActivity } from './groupActivity';

const room = (over: Partial<GroupSummary>): GroupSummary => ({
  roomId: 'r1',
  name: 'Jazz',
  category: 'Music',
  description: '',
  language: null,
  owner: 'own',
  visibility: 'public',
  official: false,
  capacity: 100,
  members: 3,
  peopleInRoom: 1,
  lastActivityAt: 1000,
  lastMessageId: 10,
  member: true,
  unread: 2,
  ...over,
});
const notice = (over: Partial<UnreadNotice>): UnreadNotice => ({
  roomId: 'r1',
  kind: 'group',
  lastMessageId: 13,
  senderId: 'someone',
  sentAt: 5000,
  ...over,
});

describe('a group room’s activity in the frame’s list', () => {
  it('counts the messages since the one the list knew, and moves the room’s last activity on', () => {
    const other = room({ roomId: 'r2', unread: 0 });
    expect(withGroupActivity([room({}), other], notice({}), 'me')).toEqual([
      room({ lastMessageId: 13, unread: 5, lastActivityAt: 5000 }),
      other,
    ]);
  });

  it('does not count the user’s own messages, nor a notice older than the list', () => {
    expect(withGroupActivity([room({})], notice({ senderId: 'me' }), 'me')).toEqual([
      room({ lastMessageId: 13, unread: 2, lastActivityAt: 5000 }),
    ]);
    expect(withGroupActivity([room({})], notice({ lastMessageId: 9 }), 'me')).toEqual([room({})]);
  });

  it('asks for the list again when the room is not one of the user’s there', () => {
    expect(withGroupActivity([room({ roomId: 'r2' })], notice({}), 'me')).toBeUndefined();
    expect(withGroupActivity([room({ member: false })], notice({}), 'me')).toBeUndefined();
  });
});
