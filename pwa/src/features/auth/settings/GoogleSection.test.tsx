import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { FactorsOverview } from '@parley/contract/factors';
import { configureStore } from '@reduxjs/toolkit';
import { api } from '../../../store/api';
import { inEnglish } from '../../../lib/i18n/testing';
import { GoogleCard } from './GoogleSection';

const factors = (over: Partial<FactorsOverview>): FactorsOverview => ({
  twoFactor: false,
  totp: false,
  passkeys: [],
  recoveryCodesLeft: 0,
  hasPassword: true,
  google: null,
  ...over,
});

/** The API slice alone: the card only calls its endpoints (nothing is sent while rendering). */
const store = () =>
  configureStore({ reducer: { [api.reducerPath]: api.reducer }, middleware: (defaults) => defaults().concat(api.middleware) });

const render = (f: FactorsOverview, { available = true, at = '/settingboard' } = {}) =>
  renderToStaticMarkup(
    inEnglish(
      <Provider store={store()}>
        <MemoryRouter initialEntries={[at]}>
          <GoogleCard factors={f} available={available} />
        </MemoryRouter>
      </Provider>,
    ),
  );

describe('Settings › Google sign-in', () => {
  it('offers to link an account without Google', () => {
    const html = render(factors({}));
    expect(html).toContain('Link Google');
    expect(html).not.toContain('Unlink Google');
  });

  it('shows the linked address and lets a password account unlink', () => {
    const html = render(factors({ google: { email: 'lee@example.test' } }));
    expect(html).toContain('Linked to lee@example.test');
    expect(html).toMatch(/<button[^>]*>Unlink Google<\/button>/);
    expect(html).not.toMatch(/<button[^>]*disabled=""[^>]*>Unlink Google/);
  });

  it('refuses to unlink the only way in, and says why', () => {
    const html = render(factors({ hasPassword: false, google: { email: null } }));
    expect(html).toContain('Linked to a Google account');
    expect(html).toContain('Google is the only way into this account. Add a password or a passkey before unlinking it.');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Unlink Google/);
    // A passkey is another way in.
    const withKey = render(
      factors({
        hasPassword: false,
        google: { email: null },
        passkeys: [{ id: 'k', name: 'Phone', createdAt: '', lastUsedAt: null }] as FactorsOverview['passkeys'],
      }),
    );
    expect(withKey).not.toMatch(/<button[^>]*disabled=""[^>]*>Unlink Google/);
  });

  it('says why a link came back refused', () => {
    const html = render(factors({}), { at: '/settingboard?google=google_linked_elsewhere' });
    expect(html).toContain('role="alert"');
    expect(html).toContain('That Google account already signs in to another Parley account. Nothing was changed.');
    expect(render(factors({}), { at: '/settingboard?google=something_else' })).toContain('Google did not confirm the link.');
  });
});
