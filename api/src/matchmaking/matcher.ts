import type { ChatFilters, RoomType } from '@parley/contract/matchmaking';
import { RECENT_PARTNER_COOLDOWN_MS, RECENT_PARTNERS, TOPIC_FALLBACK_MS } from '@parley/contract/matchmaking';
import { GENDERS, MAX_AGE, MIN_AGE, ROOM_TYPES } from '@parley/contract/constants';

/**
 * The stranger matcher: pure domain logic, no sockets, no timers (time is a parameter), so it is
 * testable on its own and a Redis-backed matchmaker can reuse its rules.
 *
 * Rules: two seekers match only when each fits the other's gender and age filters; never the
 * same user, never a blocked pair (either way), never one of the last RECENT_PARTNERS partners
 * unless both have waited RECENT_PARTNER_COOLDOWN_MS (a side that asked to meet that partner
 * again, `meetAgain`, need not wait; the other side still does). A seeker with topics accepts only partners
 * sharing a topic during its first TOPIC_FALLBACK_MS, then anyone compatible. Among candidates the
 * most shared topics win, then the longest waiting. A seeker whose own gender (or age) is unknown
 * (Google sign-in, not verified yet) only fits filters that accept everybody: gender `All`
 * (age range 18–99).
 *
 * Languages and countries: before the topics count, a language exchange (each speaks a language
 * the other learns) is preferred, then a shared language; both are found in groups keyed like
 * topics (speakers of a language, speaker>learner pairs), so no candidate is looked at twice and
 * nothing is allocated per candidate. A required language or country is a hard rule: such a
 * seeker waits only in groups of what it requires ("requires Spanish") and of what it is (its
 * languages, its shown country), never in the general index, so nobody else's probe has to skip it;
 * its own search scans the speakers of the languages (or the people of the countries) it requires.
 *
 * Complexity, independent of the queue length n: every waiting seeker sits in FIFO lists keyed by
 * (roomType, gender filter, accepted age, own gender, own age), where the accepted age is one
 * "any age" key for the full range 18–99 and one key per age of a narrowed range. Insert and
 * remove touch 1 list (full range) or at most 82 (narrowed). A match probe reads, in a dense
 * array, at most 2 gender-filter keys × 2 accepted-age keys × 4 genders × 83 own ages × 2 layers
 * list heads, skipping empty rows. Topics: a topic's waiting seekers are scanned directly while
 * they are few (≤ smallTopicGroup, exact preference); a larger group gets the same slot index and
 * is probed like the general one (the most shared topics are then compared among the list heads).
 * Within a list only entries that are the same user, blocked or a recent partner are skipped, so
 * that scan is bounded by the seeker's tabs, blocks and recent partners, never by n. Timed rules
 * use two FIFO deadline queues: O(1). bench/chat.ts (scenario "complexity") shows the cost per
 * join is flat from 100 to 100 000 waiting users.
 */

export type Gender = (typeof GENDERS)[number];

/** The filters the matcher reads; language and country requirements are the seeker's own fields. */
export type MatchFilters = Pick<ChatFilters, 'topics' | 'gender' | 'ageRange'>;

export type Seeker = {
  /** One search per socket: the socket id. */
  ticket: string;
  userId: string;
  roomType: RoomType;
  /** From the verified token; null when unknown. */
  gender: Gender | null;
  age: number | null;
  filters: MatchFilters;
  /** Languages spoken (ISO 639-1): a shared one is preferred. */
  speaks?: readonly string[];
  /** Languages being learnt: someone who speaks one of them and learns one the seeker speaks is preferred above all. */
  learning?: readonly string[];
  /** The country others may see and filter by; absent when unknown or kept from strangers. */
  country?: string | null;
  /** Only partners who speak one of these. */
  requireLanguages?: readonly string[];
  /** Only partners who show one of these countries (near me is resolved to its list before). */
  requireCountries?: readonly string[];
  /** Users this one blocked or was blocked by. */
  blocked: ReadonlySet<string>;
  /** Recent partners this seeker may meet again without waiting out its own cooldown. */
  meetAgain?: readonly string[];
  /**
   * Reported by several people within a day and not reviewed yet: meets only others in the same
   * case until a moderator decides (they are few, so skipping them keeps list scans short).
   */
  inReview?: boolean;
  /** Scaled out: the API process (instance id) holding the seeker's socket. */
  home?: string;
  /** How the partner is introduced when it is in another API process (scaled out). */
  profile?: { username: string; avatar: string };
};

export type Pairing = {
  /** The seeker whose arrival (or timer) made the match. */
  a: Seeker;
  b: Seeker;
  sharedTopics: string[];
  /** A language exchange: `a` learns aLearns, which `b` speaks, and the other way round. */
  exchange?: { aLearns: string; bLearns: string };
};

export type MatcherOptions = {
  topicFallbackMs?: number;
  recentCooldownMs?: number;
  recentPartners?: number;
  /** Topic groups up to this size are scanned exactly; larger ones are probed list by list. */
  smallTopicGroup?: number;
};

const AGES = MAX_AGE - MIN_AGE + 1; // 82
const AGE_SLOTS = AGES + 1; // own age: slot 0 = unknown age
/** Accepted age: slots 1..82 for a narrowed range, ANY_AGE for the full range (which also accepts unknown ages). */
const ANY_AGE = AGE_SLOTS;
const Y_SLOTS = AGE_SLOTS + 1;
const GENDER_SLOTS = 4; // male, female, other, unknown
const WANT_SLOTS = 4; // All, male, female, other
const ROOM_SLOTS = ROOM_TYPES.length;
const LAYERS = 2; // general index: 0 = no topics, 1 = topics whose window ended (each stays FIFO by since)

type Entry = {
  s: Seeker;
  since: number;
  seq: number;
  room: number;
  g: number;
  ageSlot: number;
  want: number;
  lo: number;
  hi: number;
  anyAge: boolean;
  topics: string[];
  topicSet: Set<string>;
  speaks: readonly string[];
  learning: readonly string[];
  country: string | null;
  reqLangs: readonly string[];
  reqCountries: readonly string[];
  /** Has a language or country requirement: kept out of the general and topic indexes (see findPartner). */
  restricted: boolean;
  /** Every group (topic, language, exchange, requirement) the entry waits in. */
  keys: string[];
  /** In the general index at this layer, or -1. */
  layer: number;
  waiting: boolean;
};

/** Seekers waiting in one group (a topic, a language...); indexed by slot only while the group is large. */
type TopicGroup = { entries: Set<Entry>; slots: Map<number, Set<Entry>> | undefined };

const NONE: readonly string[] = [];

/** Some element of `a` is in `b` (short arrays; no closure, this runs per candidate). */
function meets(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) if (b.includes(a[i]!)) return true;
  return false;
}
function firstIn(a: readonly string[], b: readonly string[]): string | undefined {
  for (let i = 0; i < a.length; i++) if (b.includes(a[i]!)) return a[i];
  return undefined;
}

/*
 * Group kinds (one character after the room): t topic, s speaks (unrestricted), x speaks>learns
 * (unrestricted), S speaks (restricted), c country (anyone showing it), r requires language, q
 * requires country (and no language).
 */
const genderSlot = (g: Gender | null) => (g === null ? 3 : GENDERS.indexOf(g));
const ageSlotOf = (age: number | null) => (age === null || age < MIN_AGE || age > MAX_AGE ? 0 : age - MIN_AGE + 1);

/** FIFO queue of entries by deadline; removed entries are skipped lazily. */
class DeadlineQueue {
  private items: Entry[] = [];
  private head = 0;
  constructor(readonly delay: number) {}
  push(e: Entry) {
    this.items.push(e);
  }
  peek(): Entry | undefined {
    while (this.head < this.items.length && !this.items[this.head]!.waiting) this.head++;
    this.compact();
    return this.items[this.head];
  }
  shift() {
    this.head++;
    this.compact();
  }
  private compact() {
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

export class Matcher {
  readonly topicFallbackMs: number;
  readonly recentCooldownMs: number;
  private readonly recentPartners: number;
  private readonly smallTopicGroup: number;
  private seq = 0;
  private readonly byTicket = new Map<string, Entry>();
  /** Waiting entries per room type. */
  private readonly roomWaiting = new Int32Array(ROOM_SLOTS);
  /**
   * Dense index: [room][want][acceptedAge][gender] rows, each [age][layer] → FIFO of entries. A row's
   * block is made on its first entry and dropped with its last, and a list with its last entry:
   * the index holds only what waits. Most people are in a chat, not waiting, so rows and lists
   * kept empty were most of the matchmaker's memory (1.7 MB at 2,000 people).
   */
  private readonly general: (Array<Set<Entry> | undefined> | undefined)[] = new Array(ROOM_SLOTS * WANT_SLOTS * Y_SLOTS * GENDER_SLOTS);
  /** Entries per [room][want][acceptedAge][gender], to skip empty rows. */
  private readonly rowCount = new Int32Array(ROOM_SLOTS * WANT_SLOTS * Y_SLOTS * GENDER_SLOTS);
  private readonly topics = new Map<string, TopicGroup>();
  private readonly recent = new Map<string, { partners: string[]; at: number }>();
  private readonly topicDue: DeadlineQueue;
  private readonly recentDue: DeadlineQueue;

  constructor(opts: MatcherOptions = {}) {
    this.topicFallbackMs = opts.topicFallbackMs ?? TOPIC_FALLBACK_MS;
    this.recentCooldownMs = opts.recentCooldownMs ?? RECENT_PARTNER_COOLDOWN_MS;
    this.recentPartners = opts.recentPartners ?? RECENT_PARTNERS;
    this.smallTopicGroup = opts.smallTopicGroup ?? 64;
    this.topicDue = new DeadlineQueue(this.topicFallbackMs);
    this.recentDue = new DeadlineQueue(this.recentCooldownMs);
  }

  get size(): number {
    return this.byTicket.size;
  }

  /** Seekers waiting for this kind of room: O(1). */
  waitingIn(roomType: RoomType): number {
    return this.roomWaiting[ROOM_TYPES.indexOf(roomType)] ?? 0;
  }

  isWaiting(ticket: string): boolean {
    return this.byTicket.has(ticket);
  }

  /** Waiting seekers, oldest first (tests and diagnostics only: O(n)). */
  waiting(): Array<{ seeker: Seeker; since: number }> {
    return [...this.byTicket.values()].sort((x, y) => x.seq - y.seq).map((e) => ({ seeker: e.s, since: e.since }));
  }

  recentPartnersOf(userId: string): readonly string[] {
    return this.recent.get(userId)?.partners ?? [];
  }

  /** Adds a seeker at time `now`: returns its partner at once, or null when it waits. Call advance(now) first. */
  add(seeker: Seeker, now: number): Pairing | null {
    this.remove(seeker.ticket);
    const f = seeker.filters;
    const want = f.gender === 'All' ? 0 : GENDERS.indexOf(f.gender) + 1;
    const e: Entry = {
      s: seeker,
      since: now,
      seq: ++this.seq,
      room: ROOM_TYPES.indexOf(seeker.roomType),
      g: genderSlot(seeker.gender),
      ageSlot: ageSlotOf(seeker.age),
      want,
      lo: f.ageRange.minAge,
      hi: f.ageRange.maxAge,
      anyAge: f.ageRange.minAge <= MIN_AGE && f.ageRange.maxAge >= MAX_AGE,
      topics: f.topics,
      topicSet: new Set(f.topics),
      speaks: seeker.speaks ?? NONE,
      learning: seeker.learning ?? NONE,
      country: seeker.country ?? null,
      reqLangs: seeker.requireLanguages ?? NONE,
      reqCountries: seeker.requireCountries ?? NONE,
      restricted: (seeker.requireLanguages?.length ?? 0) > 0 || (seeker.requireCountries?.length ?? 0) > 0,
      keys: [],
      layer: -1,
      waiting: false,
    };
    const partner = this.findPartner(e, now);
    if (partner) return this.pair(e, partner, now);
    e.waiting = true;
    this.byTicket.set(seeker.ticket, e);
    this.roomWaiting[e.room]!++;
    this.keysOf(e);
    for (const k of e.keys) this.topicInsert(k, e);
    if (e.topics.length > 0) this.topicDue.push(e);
    else if (!e.restricted) this.generalInsert(e, 0);
    this.recentDue.push(e);
    return null;
  }

  /** Cancels a waiting search. */
  remove(ticket: string): boolean {
    const e = this.byTicket.get(ticket);
    if (!e) return false;
    this.unlink(e);
    return true;
  }

  /** The next time advance() has work to do, if any. */
  nextDeadline(): number | undefined {
    const t = this.topicDue.peek();
    const r = this.recentDue.peek();
    const a = t ? t.since + this.topicFallbackMs : Infinity;
    const b = r ? r.since + this.recentCooldownMs : Infinity;
    const m = Math.min(a, b);
    return m === Infinity ? undefined : m;
  }

  /** Applies the timed rules due by `now` (topic fallback, recent partners allowed again); returns the matches they made. */
  advance(now: number): Pairing[] {
    const out: Pairing[] = [];
    for (;;) {
      const t = this.topicDue.peek();
      const r = this.recentDue.peek();
      const tAt = t ? t.since + this.topicFallbackMs : Infinity;
      const rAt = r ? r.since + this.recentCooldownMs : Infinity;
      if (Math.min(tAt, rAt) > now) break;
      let e: Entry;
      if (tAt <= rAt) {
        e = t!;
        this.topicDue.shift();
        // The window ended: accept any compatible partner from now on.
        const p = this.findPartner(e, now);
        if (p) {
          this.unlink(e);
          out.push(this.pair(e, p, now));
        } else if (!e.restricted) this.generalInsert(e, 1);
      } else {
        e = r!;
        this.recentDue.shift();
        // Recent partners become acceptable to a seeker who has waited long enough.
        const p = this.findPartner(e, now);
        if (p) {
          this.unlink(e);
          out.push(this.pair(e, p, now));
        }
      }
    }
    return out;
  }

  /** Restores what a previous matcher remembered of a user's last partners, newest first (scaled out: a new leader). */
  restoreRecent(userId: string, partners: string[], at: number) {
    if (partners.length > 0) this.recent.set(userId, { partners: partners.slice(0, this.recentPartners), at });
  }

  /** Undoes the memory of a pairing that did not happen (its other side had gone meanwhile). */
  forgetPair(a: string, b: string) {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const r = this.recent.get(x);
      if (r) r.partners = r.partners.filter((p) => p !== y);
    }
  }

  /** Drops recent-partner memory of users not matched for `idleMs` (housekeeping, O(users)). */
  forgetIdle(now: number, idleMs: number) {
    for (const [id, r] of this.recent) if (now - r.at > idleMs) this.recent.delete(id);
  }

  // ---- matching ----

  private inWindow(e: Entry, now: number) {
    return e.topics.length > 0 && now - e.since < this.topicFallbackMs;
  }

  private isRecent(a: string, b: string) {
    return (this.recent.get(a)?.partners.includes(b) ?? false) || (this.recent.get(b)?.partners.includes(a) ?? false);
  }

  /** Same user, blocks and recent partners: the rules the index cannot express. */
  private allowed(s: Entry, c: Entry, now: number): boolean {
    if (c.s.userId === s.s.userId) return false;
    if (s.s.blocked.has(c.s.userId) || c.s.blocked.has(s.s.userId)) return false;
    if ((s.s.inReview ?? false) !== (c.s.inReview ?? false)) return false;
    if (this.isRecent(s.s.userId, c.s.userId)) return this.readyToMeetAgain(s, c, now) && this.readyToMeetAgain(c, s, now);
    return true;
  }

  /** x's side of a recent pair: x waited out the cooldown, or asked to meet y again. */
  private readyToMeetAgain(x: Entry, y: Entry, now: number): boolean {
    return now - x.since >= this.recentCooldownMs || (x.s.meetAgain?.includes(y.s.userId) ?? false);
  }

  private fits(x: Entry, y: Entry): boolean {
    const genderOk = x.want === 0 || (y.g !== 3 && y.g === x.want - 1);
    const ageOk = y.ageSlot === 0 ? x.anyAge : y.s.age! >= x.lo && y.s.age! <= x.hi;
    return genderOk && ageOk;
  }

  /** What x requires (languages, countries) y has. */
  private accepts(x: Entry, y: Entry): boolean {
    if (x.reqLangs.length > 0 && !meets(x.reqLangs, y.speaks)) return false;
    if (x.reqCountries.length > 0 && (y.country === null || !x.reqCountries.includes(y.country))) return false;
    return true;
  }

  /** The rules group scans add to allowed(): requirements both ways, and each side's topic window. */
  private agree(s: Entry, c: Entry, now: number): boolean {
    if ((s.restricted || c.restricted) && !(this.accepts(s, c) && this.accepts(c, s))) return false;
    if ((this.inWindow(s, now) || this.inWindow(c, now)) && this.shared(s, c) === 0) return false;
    return true;
  }

  /** Exchange first, then a shared language, then the most shared topics. */
  private score(s: Entry, c: Entry): number {
    let n = this.shared(s, c);
    if (s.speaks.length > 0 && meets(s.speaks, c.speaks)) n += 1_000;
    if (s.learning.length > 0 && c.learning.length > 0 && meets(s.learning, c.speaks) && meets(c.learning, s.speaks)) n += 1_000_000;
    return n;
  }

  private shared(s: Entry, c: Entry): number {
    let n = 0;
    for (const t of c.topics) if (s.topicSet.has(t)) n++;
    return n;
  }

  // The best candidate of the running findPartner (fields, not closures: this runs on every join).
  private best: Entry | undefined;
  private bestShared = 0;
  private searcher: Entry | undefined;
  private readonly consider = (c: Entry) => {
    const n = this.score(this.searcher!, c);
    if (!this.best || n > this.bestShared || (n === this.bestShared && c.seq < this.best.seq)) {
      this.best = c;
      this.bestShared = n;
    }
  };

  private findPartner(s: Entry, now: number): Entry | undefined {
    this.best = undefined;
    this.bestShared = 0;
    this.searcher = s;
    if (s.restricted) {
      // Only people who meet the requirement: the speakers of a required language, or the people
      // of a required country. Restricted entries are in no other index, so nobody else scans them.
      if (s.reqLangs.length > 0) {
        for (const l of s.reqLangs) {
          this.scanGroup(s, 's', l, now);
          this.scanGroup(s, 'S', l, now);
        }
      } else for (const c of s.reqCountries) this.scanGroup(s, 'c', c, now);
    } else {
      for (const t of s.topics) this.scanGroup(s, 't', t, now);
      // Partners for an exchange (they speak what s learns and learn what s speaks), speakers of a
      // shared language, and restricted seekers whose requirement s meets.
      for (const b of s.learning) for (const a of s.speaks) this.scanGroup(s, 'x', `${b}>${a}`, now);
      for (const l of s.speaks) this.scanGroup(s, 's', l, now);
      for (const l of s.speaks) this.scanGroup(s, 'r', l, now);
      if (s.country !== null) this.scanGroup(s, 'q', s.country, now);
      if (!this.best && !this.inWindow(s, now)) this.probeGeneral(s, now, this.consider);
    }
    const best = this.best;
    this.best = this.searcher = undefined;
    return best;
  }

  private scanGroup(s: Entry, kind: string, value: string, now: number) {
    const group = this.topics.get(this.groupKey(s.room, kind, value));
    if (!group) return;
    const slots = group.slots;
    if (!slots) {
      for (const c of group.entries)
        if (this.fits(s, c) && this.fits(c, s) && this.allowed(s, c, now) && this.agree(s, c, now)) this.consider(c);
    } else {
      this.probe(s, now, (slot) => slots.get(slot), this.consider);
    }
  }

  /** probe() over the dense general index, both layers, written out because it runs on every join. */
  private probeGeneral(s: Entry, now: number, visit: (c: Entry) => void) {
    const general = this.general;
    const loSlot = s.lo - MIN_AGE + 1;
    const hiSlot = s.hi - MIN_AGE + 1;
    const ys = s.ageSlot === 0 ? 1 : 2;
    for (let wi = 0; wi < 2; wi++) {
      if (wi === 1 && s.g === 3) break;
      const w = wi === 0 ? 0 : s.g + 1;
      for (let yi = 0; yi < ys; yi++) {
        const y = yi === 0 ? ANY_AGE : s.ageSlot;
        for (let g = s.want === 0 ? 0 : s.want - 1; g < (s.want === 0 ? GENDER_SLOTS : s.want); g++) {
          const row = ((s.room * WANT_SLOTS + w) * Y_SLOTS + y) * GENDER_SLOTS + g;
          if (this.rowCount[row] === 0) continue;
          const block = general[row]!;
          if (s.anyAge) this.visitLayers(block, 0, s, now, visit);
          for (let a = loSlot; a <= hiSlot; a++) this.visitLayers(block, a * LAYERS, s, now, visit);
        }
      }
    }
  }

  private visitLayers(block: (Set<Entry> | undefined)[], i: number, s: Entry, now: number, visit: (c: Entry) => void) {
    const l0 = block[i];
    if (l0 && l0.size > 0) this.visitList(l0, s, now, visit);
    const l1 = block[i + 1];
    if (l1 && l1.size > 0) this.visitList(l1, s, now, visit);
  }

  /** Visits, in every list whose entries accept `s` and are accepted by `s`, the oldest allowed entry. */
  private probe(s: Entry, now: number, list: (slot: number) => Set<Entry> | undefined, visit: (c: Entry) => void) {
    const loSlot = s.lo - MIN_AGE + 1;
    const hiSlot = s.hi - MIN_AGE + 1;
    const ys = s.ageSlot === 0 ? [ANY_AGE] : [ANY_AGE, s.ageSlot];
    const wants = s.g === 3 ? [0] : [0, s.g + 1];
    const genders = s.want === 0 ? [0, 1, 2, 3] : [s.want - 1];
    for (const w of wants) {
      for (const y of ys) {
        for (const g of genders) {
          const base = (((s.room * WANT_SLOTS + w) * Y_SLOTS + y) * GENDER_SLOTS + g) * AGE_SLOTS;
          if (s.anyAge) this.visitList(list(base), s, now, visit);
          for (let a = loSlot; a <= hiSlot; a++) this.visitList(list(base + a), s, now, visit);
        }
      }
    }
  }

  private visitList(set: Set<Entry> | undefined, s: Entry, now: number, visit: (c: Entry) => void) {
    if (!set) return;
    for (const c of set) {
      if (this.allowed(s, c, now) && this.agree(s, c, now)) {
        visit(c);
        return;
      }
    }
  }

  private pair(a: Entry, b: Entry, now: number): Pairing {
    const shared = b.topics.filter((t) => a.topicSet.has(t));
    this.remember(a.s.userId, b.s.userId, now);
    this.remember(b.s.userId, a.s.userId, now);
    if (b.waiting) this.unlink(b);
    const aLearns = firstIn(a.learning, b.speaks);
    const bLearns = aLearns === undefined ? undefined : firstIn(b.learning, a.speaks);
    return aLearns !== undefined && bLearns !== undefined
      ? { a: a.s, b: b.s, sharedTopics: shared, exchange: { aLearns, bLearns } }
      : { a: a.s, b: b.s, sharedTopics: shared };
  }

  private remember(userId: string, partner: string, at: number) {
    const r = this.recent.get(userId) ?? { partners: [], at };
    r.partners = [partner, ...r.partners.filter((p) => p !== partner)].slice(0, this.recentPartners);
    r.at = at;
    this.recent.set(userId, r);
  }

  // ---- index maintenance ----

  private groupKey(room: number, kind: string, value: string) {
    return `${room}\u0000${kind}${value}`;
  }

  /** The groups an entry waits in (see the group kinds above). */
  private keysOf(e: Entry) {
    const k = e.keys;
    if (e.country !== null) k.push(this.groupKey(e.room, 'c', e.country));
    if (e.restricted) {
      for (const l of e.speaks) k.push(this.groupKey(e.room, 'S', l));
      if (e.reqLangs.length > 0) for (const l of e.reqLangs) k.push(this.groupKey(e.room, 'r', l));
      else for (const c of e.reqCountries) k.push(this.groupKey(e.room, 'q', c));
      return;
    }
    for (const t of e.topics) k.push(this.groupKey(e.room, 't', t));
    for (const l of e.speaks) k.push(this.groupKey(e.room, 's', l));
    for (const a of e.speaks) for (const b of e.learning) k.push(this.groupKey(e.room, 'x', `${a}>${b}`));
  }

  /** Every slot (without layer) where `e` waits: its full-range slot, or one per accepted age. */
  private slotsOf(e: Entry, visit: (slot: number, row: number) => void) {
    const from = e.anyAge ? ANY_AGE : e.lo - MIN_AGE + 1;
    const to = e.anyAge ? ANY_AGE : e.hi - MIN_AGE + 1;
    for (let y = from; y <= to; y++) {
      const row = ((e.room * WANT_SLOTS + e.want) * Y_SLOTS + y) * GENDER_SLOTS + e.g;
      visit(row * AGE_SLOTS + e.ageSlot, row);
    }
  }

  private generalInsert(e: Entry, layer: number) {
    e.layer = layer;
    const general = this.general;
    const from = e.anyAge ? ANY_AGE : e.lo - MIN_AGE + 1;
    const to = e.anyAge ? ANY_AGE : e.hi - MIN_AGE + 1;
    for (let y = from; y <= to; y++) {
      const row = ((e.room * WANT_SLOTS + e.want) * Y_SLOTS + y) * GENDER_SLOTS + e.g;
      const block = (general[row] ??= new Array<Set<Entry> | undefined>(AGE_SLOTS * LAYERS));
      (block[e.ageSlot * LAYERS + layer] ??= new Set()).add(e);
      this.rowCount[row]!++;
    }
  }

  private generalRemove(e: Entry) {
    if (e.layer < 0) return;
    const layer = e.layer;
    e.layer = -1;
    const general = this.general;
    const from = e.anyAge ? ANY_AGE : e.lo - MIN_AGE + 1;
    const to = e.anyAge ? ANY_AGE : e.hi - MIN_AGE + 1;
    for (let y = from; y <= to; y++) {
      const row = ((e.room * WANT_SLOTS + e.want) * Y_SLOTS + y) * GENDER_SLOTS + e.g;
      const block = general[row];
      const at = e.ageSlot * LAYERS + layer;
      const list = block?.[at];
      if (!list?.delete(e)) continue;
      if (--this.rowCount[row]! === 0) general[row] = undefined;
      else if (list.size === 0) block![at] = undefined;
    }
  }

  private topicInsert(key: string, e: Entry) {
    let group = this.topics.get(key);
    if (!group) this.topics.set(key, (group = { entries: new Set(), slots: undefined }));
    group.entries.add(e);
    if (group.slots) this.topicSlotsAdd(group.slots, e);
    else if (group.entries.size > this.smallTopicGroup) {
      // Large enough that scanning it would cost more than probing: index it (amortised O(1)).
      const slots = (group.slots = new Map());
      for (const c of group.entries) this.topicSlotsAdd(slots, c);
    }
  }

  private topicSlotsAdd(slots: Map<number, Set<Entry>>, e: Entry) {
    this.slotsOf(e, (slot) => {
      let set = slots.get(slot);
      if (!set) slots.set(slot, (set = new Set()));
      set.add(e);
    });
  }

  private topicRemove(key: string, e: Entry) {
    const group = this.topics.get(key);
    if (!group) return;
    group.entries.delete(e);
    if (group.entries.size === 0) {
      this.topics.delete(key);
      return;
    }
    const slots = group.slots;
    if (!slots) return;
    // Hysteresis: drop the index only well below the threshold, so a group at the edge does not flap.
    if (group.entries.size < this.smallTopicGroup / 2) {
      group.slots = undefined;
      return;
    }
    this.slotsOf(e, (slot) => {
      const set = slots.get(slot);
      if (set?.delete(e) && set.size === 0) slots.delete(slot);
    });
  }

  private unlink(e: Entry) {
    if (!e.waiting) return;
    e.waiting = false;
    this.byTicket.delete(e.s.ticket);
    this.roomWaiting[e.room]!--;
    for (const k of e.keys) this.topicRemove(k, e);
    this.generalRemove(e);
  }
}
