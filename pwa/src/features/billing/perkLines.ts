import { PERKS, type Perks, type Tier } from '@parley/contract/billing';

export type PerkLine = { text: string; /** Set while the server does not give this perk yet: the page says so. */ notYet?: true };

/** What a tier adds, in words, from the one table the server enforces (contract/billing). */
export function perkLines(tier: Tier): PerkLine[] {
  const p: Perks = PERKS[tier];
  const lines: PerkLine[] = [];
  if (p.badge) lines.push({ text: 'A supporter badge on your profile' });
  lines.push({ text: `Own up to ${p.ownedGroupRooms} group rooms of up to ${p.groupRoomCapacity} people` });
  lines.push({ text: `Hold up to ${p.streakFreezes} streak freezes` });
  if (tier !== 'free tier')
    lines.push({ text: `Keep your last ${p.recentPartners} chat partners for ${hours(p.recentPartnerHours)}, to send a friend request later`, notYet: true });
  if (p.monthlyGold > 0) lines.push({ text: `${p.monthlyGold} gold every month`, notYet: true });
  if (p.customEmojiUpload) lines.push({ text: 'Upload your own custom emoji' });
  return lines;
}

function hours(h: number): string {
  if (h % 24 === 0) return h === 24 ? '24 hours' : `${h / 24} days`;
  return `${h} hours`;
}

/** Always free, whatever the tier: safety and the basic filters are never for sale. */
export const FREE_FOR_EVERYONE = ['Text and video chat with strangers', 'Gender, age and topic filters', 'Reports and blocks'];

export const TIER_NAMES: Record<Tier, string> = { 'free tier': 'Free', plus: 'Plus', pro: 'Pro' };
