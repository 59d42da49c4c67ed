import { createContext } from 'react';
import type { TranslateAnswer } from '@parley/contract/translate';

/**
 * Puts someone's message into the viewer's language through the server's translator; resolves
 * the translation or rejects with a readable Error. Null where this server translates nothing
 * (no TRANSLATE_URL): then no message shows a Translate button.
 */
export type Translate = (text: string) => Promise<TranslateAnswer>;
export const TranslateContext = createContext<Translate | null>(null);
