import { displayName } from './displayNames';

/** A language's name in the interface's language, from its ISO 639-1 code. */
export const languageName = (code: string) => displayName('language', code);
