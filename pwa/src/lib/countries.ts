const countryNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'region' }) : null;

/** A country's name in the reader's language, from its ISO code. */
export const countryName = (code: string) => countryNames?.of(code) ?? code;
