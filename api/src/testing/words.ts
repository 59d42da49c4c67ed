import { DIRECT_MESSAGE } from '../notifications/area.ts';
import { LEVEL_UP } from '../missions/area.ts';
import { words, type Words } from '../platform/i18n/i18n.ts';

/** Words of a notice for tests: a direct message's, which reads `${from}: ${text}` in English. */
export const said = (from: string, text: string): Words => words(DIRECT_MESSAGE, { sender: from, preview: text });
/** A level-up notice's words. */
export const levelUp = (level: number): Words => words(LEVEL_UP, { level });
