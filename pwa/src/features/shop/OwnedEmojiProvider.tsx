import type { ReactNode } from 'react';
import { OwnedEmojiContext } from '../../components/conversation/ownedEmoji';
import { useOwnedEmojiQuery } from './shopApi';

const none: never[] = [];

/** Gives every conversation the user's own custom emoji (their packs), fetched once and after a purchase. */
export function OwnedEmojiProvider({ children }: { children?: ReactNode }) {
  const { data } = useOwnedEmojiQuery();
  return <OwnedEmojiContext.Provider value={data ?? none}>{children}</OwnedEmojiContext.Provider>;
}
