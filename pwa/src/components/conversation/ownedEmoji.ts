import { createContext, useContext } from 'react';
import type { OwnedEmoji } from '@parley/contract/shop';

/** The signed-in user's own custom emoji (their packs'), for the picker and their own messages. */
export const OwnedEmojiContext = createContext<readonly OwnedEmoji[]>([]);
export const useOwnedEmoji = () => useContext(OwnedEmojiContext);
