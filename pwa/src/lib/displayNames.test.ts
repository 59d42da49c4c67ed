import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { languageName } from './languages';
import { countryName } from './countries';
import { sortedByName } from './displayNames';

const activate = (locale: string) => i18n.loadAndActivate({ locale, messages: {} });

describe('language and country names', () => {
  afterEach(() => activate('en'));

  it('follow the interface language, not the browser', () => {
    activate('ja');
    expect(languageName('fr')).toBe('フランス語');
    expect(countryName('DE')).toBe('ドイツ');
    activate('es');
    expect(languageName('en')).toBe('inglés');
    expect(countryName('JP')).toBe('Japón');
    activate('en');
    expect(languageName('fr')).toBe('French');
    expect(countryName('DE')).toBe('Germany');
  });

  it('read English in the pseudo-locale, and keep an unknown code as it is', () => {
    activate('en-XA');
    expect(languageName('de')).toBe('German');
    expect(languageName('not a code')).toBe('not a code');
    expect(countryName('??')).toBe('??');
  });

  it('sort in the interface language', () => {
    // Ägypten, Argentinien, Deutschland: German names, and Ä sorted with A (a code-point sort puts it last).
    activate('de');
    expect(sortedByName(['DE', 'AR', 'EG'], countryName, 'de')).toEqual(['EG', 'AR', 'DE']);
    // Argentina, Egypt, Germany.
    activate('en');
    expect(sortedByName(['DE', 'AR', 'EG'], countryName, 'en')).toEqual(['AR', 'EG', 'DE']);
  });
});
