import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { usernameSchema } from '@parley/contract/auth';
import { usernameCandidates, usernameFromProfile } from './usernames.ts';

describe('usernames for Google accounts', () => {
  it.each([
    [{ displayName: 'Jane Doe' }, 'Jane_Doe'],
    [{ displayName: 'José Álvarez' }, 'Jose_Alvarez'],
    [{ displayName: '  ', email: 'jane.doe+x@example.com' }, 'janedoex'],
    [{ displayName: '李雷' }, 'user'],
    [{ displayName: 'Al' }, 'userAl'],
    [{ displayName: 'An extremely long display name indeed' }, 'An_extremely_long_di'],
    [{}, 'user'],
    // Names the app treats specially are never derived: "None" would read as signed out.
    [{ displayName: 'None' }, 'user_None'],
    [{ displayName: 'NONE' }, 'user_NONE'],
    [{ displayName: ' ', email: 'none@example.com' }, 'user_none'],
    [{ displayName: 'Stranger' }, 'user_Stranger'],
  ])('%o -> %s', (profile, expected) => {
    expect(usernameFromProfile(profile)).toBe(expected);
  });

  it('always yields names that pass the sign-up rules', () => {
    fc.assert(
      fc.property(
        fc.option(fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('None', 'nOnE', 'null', 'You', 'admin')), { nil: undefined }),
        fc.option(fc.emailAddress(), { nil: undefined }),
        (displayName, email) => {
          const base = usernameFromProfile({ displayName, email });
          for (const candidate of usernameCandidates(base)) {
            expect(usernameSchema.safeParse(candidate).success, candidate).toBe(true);
          }
        },
      ),
    );
  });

  it('tries the name itself first, then numbered variants', () => {
    const names = [...usernameCandidates('Jane_Doe')];
    expect(names[0]).toBe('Jane_Doe');
    for (const n of names.slice(1)) expect(n).toMatch(/^Jane_Doe_\d+$/);
  });
});
