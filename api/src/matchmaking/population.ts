import type { TokenUser } from '@parley/contract/auth';
import type { ChatFilters } from '@parley/contract/matchmaking';
import { GENDERS, MAX_AGE, MIN_AGE } from '@parley/contract/constants';

const AGE_SLOTS = MAX_AGE - MIN_AGE + 2; // slot 0: age unknown
const GENDER_SLOTS = GENDERS.length + 1; // last: gender unknown

const genderSlot = (g: TokenUser['gender']) => (g === null ? GENDERS.length : GENDERS.indexOf(g));
const ageSlot = (age: number | null) => (age === null || age < MIN_AGE || age > MAX_AGE ? 0 : age - MIN_AGE + 1);

/**
 * Who is online in this process for the chat, counted once per user however many tabs they have,
 * as a histogram of (gender, age): enough to answer "how many online people fit these filters"
 * without looking at any of them. Join and leave are O(1); fitting() adds at most 4 × 82 cells,
 * whatever the number online.
 */
export class Population {
  private readonly cells = new Int32Array(GENDER_SLOTS * AGE_SLOTS);
  private readonly users = new Map<string, { sockets: number; cell: number; speaks: readonly string[]; country: string | null }>();
  /** Users online per language spoken and per country shown (a hidden country is not counted). */
  private readonly speakers = new Map<string, number>();
  private readonly shownCountries = new Map<string, number>();
  private readonly socketUser = new Map<string, string>();

  /** A socket of this user connected. */
  join(socketId: string, user: Pick<TokenUser, 'userId' | 'gender' | 'age'>) {
    if (this.socketUser.has(socketId)) return;
    this.socketUser.set(socketId, user.userId);
    const known = this.users.get(user.userId);
    if (known) {
      known.sockets++;
      return;
    }
    const cell = genderSlot(user.gender) * AGE_SLOTS + ageSlot(user.age);
    this.users.set(user.userId, { sockets: 1, cell, speaks: [], country: null });
    this.cells[cell]!++;
  }

  /** The socket went; its user leaves with their last one. */
  leave(socketId: string) {
    const userId = this.socketUser.get(socketId);
    if (userId === undefined) return;
    this.socketUser.delete(socketId);
    const u = this.users.get(userId)!;
    if (--u.sockets > 0) return;
    this.users.delete(userId);
    this.cells[u.cell]!--;
    this.count(u, -1);
  }

  /** The languages and shown country of the socket's user, once read from their profile. */
  describe(socketId: string, speaks: readonly string[], country: string | null) {
    const u = this.users.get(this.socketUser.get(socketId) ?? '');
    if (!u) return;
    this.count(u, -1);
    u.speaks = speaks;
    u.country = country;
    this.count(u, 1);
  }

  private count(u: { speaks: readonly string[]; country: string | null }, by: number) {
    for (const l of u.speaks) this.speakers.set(l, (this.speakers.get(l) ?? 0) + by);
    if (u.country !== null) this.shownCountries.set(u.country, (this.shownCountries.get(u.country) ?? 0) + by);
  }

  /**
   * Users online, other than the socket's, who speak one of these languages: 0 exactly when
   * nobody does (someone speaking two of them counts twice, which is enough to say "widen").
   */
  speaking(languages: readonly string[], socketId: string): number {
    const me = this.users.get(this.socketUser.get(socketId) ?? '');
    let n = 0;
    for (const l of languages) n += (this.speakers.get(l) ?? 0) - (me?.speaks.includes(l) ? 1 : 0);
    return Math.max(0, n);
  }

  /** Users online, other than the socket's, who show one of these countries. */
  showing(countries: readonly string[], socketId: string): number {
    const me = this.users.get(this.socketUser.get(socketId) ?? '');
    let n = 0;
    for (const c of new Set(countries)) n += (this.shownCountries.get(c) ?? 0) - (me?.country === c ? 1 : 0);
    return Math.max(0, n);
  }

  /** Users online. */
  get online(): number {
    return this.users.size;
  }

  /**
   * Users online, other than `self`, whose gender and age fit these filters (topics are not a
   * limit: a search falls back to anyone compatible). The matcher's own rule: an unknown gender
   * fits only `All`, an unknown age only the full range.
   */
  fitting(filters: ChatFilters, self: Pick<TokenUser, 'userId' | 'gender' | 'age'>): number {
    const { minAge, maxAge } = filters.ageRange;
    const anyAge = minAge <= MIN_AGE && maxAge >= MAX_AGE;
    const genders = filters.gender === 'All' ? [...GENDERS.keys(), GENDERS.length] : [GENDERS.indexOf(filters.gender)];
    let n = 0;
    for (const g of genders) {
      const row = g * AGE_SLOTS;
      if (anyAge) n += this.cells[row]!;
      for (let a = ageSlot(minAge); a <= ageSlot(maxAge); a++) n += this.cells[row + a]!;
    }
    // The user themselves, when online and inside their own filters.
    const me = this.users.get(self.userId);
    if (me && this.cellFits(me.cell, genders, minAge, maxAge, anyAge)) n--;
    return n;
  }

  private cellFits(cell: number, genders: number[], minAge: number, maxAge: number, anyAge: boolean): boolean {
    const g = Math.floor(cell / AGE_SLOTS);
    const a = cell % AGE_SLOTS;
    if (!genders.includes(g)) return false;
    return a === 0 ? anyAge : a >= ageSlot(minAge) && a <= ageSlot(maxAge);
  }
}
