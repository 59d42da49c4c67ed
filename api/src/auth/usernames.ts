import { randomInt } from 'node:crypto';
import { isReservedUsername } from '@parley/contract/auth';

const MAX = 20;
const MIN = 3;

/**
 * A username for someone who signed in with Google: their name (or the local part of their
 * email) reduced to the username rules — letters, digits, `_` and `-`, 3 to 20 characters, never
 * a reserved name (a profile called "None" becomes `user_None`).
 */
export function usernameFromProfile(profile: { displayName?: string | undefined; email?: string | undefined }): string {
  const source = profile.displayName?.trim() || profile.email?.split('@')[0] || '';
  let name = source
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off: "José" -> "Jose"
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9_-]/g, '')
    .replace(/[_-]{2,}/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, MAX);
  if (name.length < MIN) name = `user${name}`.slice(0, MAX);
  if (isReservedUsername(name)) name = `user_${name}`.slice(0, MAX);
  return name;
}

/**
 * The names to try in turn until one is free: the name itself, then the name with a random
 * number, shortened so the whole stays within 20 characters.
 */
export function* usernameCandidates(base: string, attempts = 12): Generator<string> {
  yield base;
  for (let i = 1; i < attempts; i++) {
    // Wider numbers on later attempts make a collision ever less likely.
    const digits = i < 4 ? 3 : i < 8 ? 5 : 7;
    const suffix = `_${randomInt(10 ** (digits - 1), 10 ** digits)}`;
    yield base.slice(0, MAX - suffix.length) + suffix;
  }
}

/**
 * Names to offer someone whose choice is taken or not allowed: the choice reduced to the rules,
 * then with numbers, at most `count`, checked against `taken` (lower-cased names) by the caller.
 */
export function suggestionCandidates(choice: string, count = 10): string[] {
  const base = usernameFromProfile({ displayName: choice });
  const out = new Set<string>();
  for (const name of usernameCandidates(base, count + 1)) if (!isReservedUsername(name)) out.add(name);
  return [...out];
}
