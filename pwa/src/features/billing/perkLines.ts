import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { PERKS, type Perks, type Tier } from '@parley/contract/billing';

export type PerkLine = { text: string };

/** A span given in hours, as people say it: whole days from two days up, else hours. */
function span(hours: number): string {
  if (hours % 24 === 0 && hours > 24) {
    const days = hours / 24;
    return i18n._(msg`${plural(days, { one: '# day', other: '# days' })}`);
  }
  return i18n._(msg`${plural(hours, { one: '# hour', other: '# hours' })}`);
}

/** What a tier adds, in words (in the interface language), from the one table the server enforces (contract/billing). */
export function perkLines(tier: Tier): PerkLine[] {
  const p: Perks = PERKS[tier];
  const lines: PerkLine[] = [];
  if (p.badge)
    lines.push({ text: i18n._(msg`A premium badge and a name colour of your choice, on your profile and beside your name in chats`) });
  const rooms = p.ownedGroupRooms;
  const capacity = p.groupRoomCapacity;
  lines.push({
    text: i18n._(msg`${plural(rooms, { one: 'Own # group room', other: 'Own up to # group rooms' })} of up to ${capacity} people`),
  });
  const freezes = p.streakFreezes;
  lines.push({ text: i18n._(msg`${plural(freezes, { one: 'Hold # streak freeze', other: 'Hold up to # streak freezes' })}`) });
  const partners = p.recentPartners;
  const past = span(p.recentPartnerHours);
  lines.push({
    text: i18n._(
      msg`${plural(partners, { one: 'Send a friend request to your last chat partner', other: 'Send friend requests to your last # chat partners' })} from the past ${past}`,
    ),
  });
  const gold = p.monthlyGold;
  if (gold > 0) lines.push({ text: i18n._(msg`${gold} gold with every paid month`) });
  if (p.customEmojiUpload) lines.push({ text: i18n._(msg`Upload your own custom emoji`) });
  return lines;
}

const TIER_NAMES: Record<Tier, MessageDescriptor> = { 'free tier': msg`Free`, plus: msg`Plus`, pro: msg`Pro` };
/** A tier's name in the interface language. */
export const tierName = (tier: Tier) => i18n._(TIER_NAMES[tier]);
