import { displayNames } from './displayNames';

/** A country's name in the interface's language, from its ISO code. */
export const countryName = (code: string) => {
  try {
    return displayNames('region')?.of(code) ?? code;
  } catch {
    return code;
  }
};
