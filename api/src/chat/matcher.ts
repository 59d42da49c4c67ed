import type { ChatFilters, RoomType } from '@parley/contract/chat';
import { RECENT_PARTNER_COOLDOWN_MS, RECENT_PARTNERS, TOPIC_FALLBACK_MS } from '@parley/contract/chat';
import { GENDERS, MAX_AGE, MIN_AGE, ROOM_TYPES } from '@parley/contract/constants';

/**
 * The stranger matcher: pure domain logic, no sockets, no timers (time is a parameter), so it is
 * testable on its own and a Redis-backed matchmaker can reuse its rules.
 *
 * Rules: two seekers match only when each fits the other's gender and age filters; never the
 * same user, never a blocked pair (either way), never one of the last RECENT_PARTNERS partners
 * unless both have waited RECENT_PARTNER_COOLDOWN_MS. A seeker with topics accepts only partners
 * sharing a topic during its first TOPIC_FALLBACK_MS, then anyone compatible. Among candidates the
 * most shared topics win, then the longest waiting. A seeker whose own gender (or age) is unknown
 * (Google sign-in, not verified yet) only fits filters that accept everybody: gender `All`
 * (age range 18–99).
 *
 * Complexity, independent of the queue length n: every waiting seeker sits in FIFO lists keyed by
 * (roomType, gender filter it accepts, age it accepts, its own gender, its own age). Insert and
 * remove touch at most 83 lists (one per accepted age), per topic as well (≤ 10 topics). A match
 * probe reads at most 2 accepted-gender keys × 4 genders × 83 ages = 664 list heads in a dense
 * array, and per searched topic either scans the topic's seekers when they are few
 * (≤ smallTopicGroup) or probes the same 664 heads. Within a list only entries that are the same
 * user, blocked or a recent partner are skipped, so that scan is bounded by the seeker's own tabs,
 * blocks and 6 recent partners, never by n. Timed rules use two FIFO deadline queues: O(1).
 */

export type Gender = (typeof GENDERS)[number];

export type Seeker = {
  /** One search per socket: the socket id. */
  ticket: string;
  userId: string;
  roomType: RoomType;
  /** From the verified token; null when unknown. */
  gender: Gender | null;
  age: number | null;
  filters: ChatFilters;
  /** Users this one blocked or was blocked by. */
  blocked: ReadonlySet<string>;
};

export type Pairing = {
  /** The seeker whose arrival (or timer) made the match. */
  a: Seeker;
  b: Seeker;
  sharedTopics: string[];
};

export type MatcherOptions = {
  topicFallbackMs?: number;
  recentCooldownMs?: number;
  recentPartners?: number;
  /** Topic groups up to this size are scanned exactly; larger ones are probed list by list. */
  smallTopicGroup?: number;
};

const AGES = MAX_AGE - MIN_AGE + 1; // 82
const AGE_SLOTS = AGES + 1; // slot 0 = unknown age
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
  /** In the general index at this layer, or -1. */
  layer: number;
  waiting: boolean;
};

type TopicGroup = { entries: Set<Entry>; slots: Map<number, Set<Entry>> };

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
  /** Dense index: [room][want][acceptedAge][gender][age][layer] → FIFO of entries. */
  private readonly general: (Set<Entry> | undefined)[] = new Array(ROOM_SLOTS * WANT_SLOTS * AGE_SLOTS * GENDER_SLOTS * AGE_SLOTS * LAYERS);
  /** Entries per [room][want][acceptedAge][gender], to skip empty rows. */
  private readonly rowCount = new Int32Array(ROOM_SLOTS * WANT_SLOTS * AGE_SLOTS * GENDER_SLOTS);
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
      layer: -1,
      waiting: false,
    };
    const partner = this.findPartner(e, now);
    if (partner) return this.pair(e, partner, now);
    e.waiting = true;
    this.byTicket.set(seeker.ticket, e);
    for (const t of e.topics) this.topicInsert(t, e);
    if (e.topics.length === 0) this.generalInsert(e, 0);
    else this.topicDue.push(e);
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
        } else this.generalInsert(e, 1);
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
    if (this.isRecent(s.s.userId, c.s.userId)) {
      return now - s.since >= this.recentCooldownMs && now - c.since >= this.recentCooldownMs;
    }
    return true;
  }

  private fits(x: Entry, y: Entry): boolean {
    const genderOk = x.want === 0 || (y.g !== 3 && y.g === x.want - 1);
    const ageOk = y.ageSlot === 0 ? x.anyAge : y.s.age! >= x.lo && y.s.age! <= x.hi;
    return genderOk && ageOk;
  }

  private shared(s: Entry, c: Entry): number {
    let n = 0;
    for (const t of c.topics) if (s.topicSet.has(t)) n++;
    return n;
  }

  private findPartner(s: Entry, now: number): Entry | undefined {
    let best: Entry | undefined;
    let bestShared = 0;
    const consider = (c: Entry) => {
      const n = this.shared(s, c);
      if (!best || n > bestShared || (n === bestShared && c.seq < best.seq)) {
        best = c;
        bestShared = n;
      }
    };
    for (const t of s.topics) {
      const group = this.topics.get(this.topicKey(s.room, t));
      if (!group) continue;
      if (group.entries.size <= this.smallTopicGroup) {
        for (const c of group.entries) if (this.fits(s, c) && this.fits(c, s) && this.allowed(s, c, now)) consider(c);
      } else {
        this.probe(s, now, (slot) => group.slots.get(slot), consider);
      }
    }
    if (best || this.inWindow(s, now)) return best;
    for (let layer = 0; layer < LAYERS; layer++) this.probe(s, now, (slot) => this.general[slot * LAYERS + layer], consider, true);
    return best;
  }

  /** Visits, in every list whose entries accept `s` and are accepted by `s`, the oldest allowed entry. */
  private probe(s: Entry, now: number, list: (slot: number) => Set<Entry> | undefined, visit: (c: Entry) => void, skipEmptyRows = false) {
    const wants = s.g === 3 ? [0] : [0, s.g + 1];
    const genders = s.want === 0 ? [0, 1, 2, 3] : [s.want - 1];
    const loSlot = s.lo - MIN_AGE + 1;
    const hiSlot = s.hi - MIN_AGE + 1;
    for (const w of wants) {
      for (const g of genders) {
        const row = ((s.room * WANT_SLOTS + w) * AGE_SLOTS + s.ageSlot) * GENDER_SLOTS + g;
        if (skipEmptyRows && this.rowCount[row] === 0) continue;
        const base = row * AGE_SLOTS;
        if (s.anyAge) this.visitList(list(base), s, now, visit);
        for (let a = loSlot; a <= hiSlot; a++) this.visitList(list(base + a), s, now, visit);
      }
    }
  }

  private visitList(set: Set<Entry> | undefined, s: Entry, now: number, visit: (c: Entry) => void) {
    if (!set) return;
    for (const c of set) {
      if (this.allowed(s, c, now)) {
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
    return { a: a.s, b: b.s, sharedTopics: shared };
  }

  private remember(userId: string, partner: string, at: number) {
    const r = this.recent.get(userId) ?? { partners: [], at };
    r.partners = [partner, ...r.partners.filter((p) => p !== partner)].slice(0, this.recentPartners);
    r.at = at;
    this.recent.set(userId, r);
  }

  // ---- index maintenance ----

  private topicKey(room: number, topic: string) {
    return `${room}\u0000${topic}`;
  }

  /** Every slot (without layer) where `e` waits: one per accepted age. */
  private slotsOf(e: Entry, visit: (slot: number, row: number) => void) {
    const lo = e.lo - MIN_AGE + 1;
    const hi = e.hi - MIN_AGE + 1;
    const row = (y: number) => ((e.room * WANT_SLOTS + e.want) * AGE_SLOTS + y) * GENDER_SLOTS + e.g;
    if (e.anyAge) visit(row(0) * AGE_SLOTS + e.ageSlot, row(0));
    for (let y = lo; y <= hi; y++) visit(row(y) * AGE_SLOTS + e.ageSlot, row(y));
  }

  private generalInsert(e: Entry, layer: number) {
    e.layer = layer;
    this.slotsOf(e, (slot, row) => {
      const i = slot * LAYERS + layer;
      (this.general[i] ??= new Set()).add(e);
      this.rowCount[row]!++;
    });
  }

  private generalRemove(e: Entry) {
    if (e.layer < 0) return;
    const layer = e.layer;
    e.layer = -1;
    this.slotsOf(e, (slot, row) => {
      const i = slot * LAYERS + layer;
      const set = this.general[i];
      if (set?.delete(e)) this.rowCount[row]!--;
      if (set && set.size === 0) this.general[i] = undefined;
    });
  }

  private topicInsert(t: string, e: Entry) {
    const key = this.topicKey(e.room, t);
    let group = this.topics.get(key);
    if (!group) this.topics.set(key, (group = { entries: new Set(), slots: new Map() }));
    group.entries.add(e);
    this.slotsOf(e, (slot) => {
      let set = group.slots.get(slot);
      if (!set) group.slots.set(slot, (set = new Set()));
      set.add(e);
    });
  }

  private topicRemove(t: string, e: Entry) {
    const key = this.topicKey(e.room, t);
    const group = this.topics.get(key);
    if (!group) return;
    group.entries.delete(e);
    if (group.entries.size === 0) {
      this.topics.delete(key);
      return;
    }
    this.slotsOf(e, (slot) => {
      const set = group.slots.get(slot);
      if (set?.delete(e) && set.size === 0) group.slots.delete(slot);
    });
  }

  private unlink(e: Entry) {
    if (!e.waiting) return;
    e.waiting = false;
    this.byTicket.delete(e.s.ticket);
    for (const t of e.topics) this.topicRemove(t, e);
    this.generalRemove(e);
  }
}
