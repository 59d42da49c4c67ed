import { displayName } from './displayNames';

/** A country's name in the interface's language, from its ISO code. */
export const countryName = (code: string) => displayName('region', code);
