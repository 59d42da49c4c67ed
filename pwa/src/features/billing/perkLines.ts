import { PERKS, type Perks, type Tier } from '@parley/contract/billing';
import { hoursInWords } from '../../lib/hoursInWords';

export type PerkLine = { text: string };

/** What a tier adds, in words, from the one table the server enforces (contract/billing). */
export function perkLines(tier: Tier): PerkLine[] {
  const p: Perks = PERKS[tier];
  const lines: PerkLine[] = [];
  if (p.badge) lines.push({ text: 'A premium badge and a name colour of your choice, on your profile and beside your name in chats' });
  lines.push({ text: `Own up to ${p.ownedGroupRooms} group rooms of up to ${p.groupRoomCapacity} people` });
  lines.push({ text: `Hold up to ${p.streakFreezes} streak freezes` });
  lines.push({
    text: `Send friend requests to your last ${p.recentPartners} chat partners from the past ${hoursInWords(p.recentPartnerHours)}`,
  });
  if (p.monthlyGold > 0) lines.push({ text: `${p.monthlyGold} gold with every paid month` });
  if (p.customEmojiUpload) lines.push({ text: 'Upload your own custom emoji' });
  return lines;
}

/** Always free, whatever the tier: safety and the basic filters are never for sale. */
export const FREE_FOR_EVERYONE = ['Text and video chat with strangers', 'Gender, age and topic filters', 'Reports and blocks'];

export const TIER_NAMES: Record<Tier, string> = { 'free tier': 'Free', plus: 'Plus', pro: 'Pro' };
