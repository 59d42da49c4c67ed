import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { MissionQuest } from '@parley/contract/missions';

/**
 * The server names quests and rewards in English (its quest catalogue, its reward labels); these
 * are the same words in the interface language. A quest or label added on the server without a
 * line here is shown as the server wrote it.
 */
const QUESTS: Record<string, [english: string, MessageDescriptor]> = {
  'say-hello': ['Have a chat where your partner answers', msg`Have a chat where your partner answers`],
  'talk-three': ['Talk with 3 people who answer', msg`Talk with 3 people who answer`],
  'minute-chat': ['Have a chat that lasts a minute', msg`Have a chat that lasts a minute`],
  'minute-chats': ['Have 3 chats that each last a minute', msg`Have 3 chats that each last a minute`],
  'make-friend': ['Make a friend', msg`Make a friend`],
  'group-replies': ['Get 3 replies or reactions in a group room', msg`Get 3 replies or reactions in a group room`],
  'watch-live': ['Spend 10 minutes in live streams', msg`Spend 10 minutes in live streams`],
  'week-talk': ['Talk with 15 people this week', msg`Talk with 15 people this week`],
  'week-minutes': ['Have 10 chats of a minute or more this week', msg`Have 10 chats of a minute or more this week`],
  'week-visits': ['Visit Parley on 5 days this week', msg`Visit Parley on 5 days this week`],
  'week-friends': ['Make 3 friends this week', msg`Make 3 friends this week`],
};

/** The labels of rewards that are not quests (api/src/missions/service.ts, the billing webhook). */
const LABELS: Record<string, MessageDescriptor> = {
  'A chat of a minute or more': msg`A chat of a minute or more`,
  'A chat your partner answered': msg`A chat your partner answered`,
  'Daily visit': msg`Daily visit`,
  'A new friend': msg`A new friend`,
  'A reply in a group room': msg`A reply in a group room`,
  'Minutes in live streams': msg`Minutes in live streams`,
  'Plus membership: monthly gold': msg`Plus membership: monthly gold`,
  'Pro membership: monthly gold': msg`Pro membership: monthly gold`,
};
for (const [english, words] of Object.values(QUESTS)) LABELS[english] = words;

/** A quest's title in the interface language. */
export function questTitle(quest: Pick<MissionQuest, 'questId' | 'title'>): string {
  const known = QUESTS[quest.questId];
  return known && known[0] === quest.title ? i18n._(known[1]) : quest.title;
}

/** A recent reward's label in the interface language. */
export function rewardLabel(label: string): string {
  const level = /^Reached level (\d+)$/.exec(label)?.[1];
  if (level) {
    const n = Number(level);
    return i18n._(msg`Reached level ${n}`);
  }
  const known = LABELS[label];
  return known ? i18n._(known) : label;
}
