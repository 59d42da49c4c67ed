import { displayNames } from './displayNames';

/** A language's name in the interface's language, from its ISO 639-1 code. */
export const languageName = (code: string) => {
  try {
    return displayNames('language')?.of(code) ?? code;
  } catch {
    return code;
  }
};
