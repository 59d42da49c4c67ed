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
  /** In the general index at this layer, or -1. */
  layer: number;
  waiting: boolean;
};

/** Seekers waiting with one topic; indexed by slot only while the group is large. */
type TopicGroup = { entries: Set<Entry>; slots: Map<number, Set<Entry>> | undefined };

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
  /** Dense index: [room][want][acceptedAge][gender][age][layer] → FIFO of entries. */
  private readonly general: (Set<Entry> | undefined)[] = new Array(ROOM_SLOTS * WANT_SLOTS * Y_SLOTS * GENDER_SLOTS * AGE_SLOTS * LAYERS);
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
      layer: -1,
      waiting: false,
    };
    const partner = this.findPartner(e, now);
    if (partner) return this.pair(e, partner, now);
    e.waiting = true;
    this.byTicket.set(seeker.ticket, e);
    this.roomWaiting[e.room]!++;
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

  // The best candidate of the running findPartner (fields, not closures: this runs on every join).
  private best: Entry | undefined;
  private bestShared = 0;
  private searcher: Entry | undefined;
  private readonly consider = (c: Entry) => {
    const n = this.shared(this.searcher!, c);
    if (!this.best || n > this.bestShared || (n === this.bestShared && c.seq < this.best.seq)) {
      this.best = c;
      this.bestShared = n;
    }
  };

  private findPartner(s: Entry, now: number): Entry | undefined {
    this.best = undefined;
    this.bestShared = 0;
    this.searcher = s;
    for (const t of s.topics) {
      const group = this.topics.get(this.topicKey(s.room, t));
      if (!group) continue;
      const slots = group.slots;
      if (!slots) {
        for (const c of group.entries) if (this.fits(s, c) && this.fits(c, s) && this.allowed(s, c, now)) this.consider(c);
      } else {
        this.probe(s, now, (slot) => slots.get(slot), this.consider);
      }
    }
    if (!this.best && !this.inWindow(s, now)) this.probeGeneral(s, now, this.consider);
    const best = this.best;
    this.best = this.searcher = undefined;
    return best;
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
          const base = row * AGE_SLOTS;
          if (s.anyAge) this.visitLayers(general, base * LAYERS, s, now, visit);
          for (let a = loSlot; a <= hiSlot; a++) this.visitLayers(general, (base + a) * LAYERS, s, now, visit);
        }
      }
    }
  }

  private visitLayers(general: (Set<Entry> | undefined)[], i: number, s: Entry, now: number, visit: (c: Entry) => void) {
    const l0 = general[i];
    if (l0 && l0.size > 0) this.visitList(l0, s, now, visit);
    const l1 = general[i + 1];
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
      const i = (row * AGE_SLOTS + e.ageSlot) * LAYERS + layer;
      (general[i] ??= new Set()).add(e);
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
      const i = (row * AGE_SLOTS + e.ageSlot) * LAYERS + layer;
      // Empty lists stay allocated: joins and leaves then allocate nothing.
      if (general[i]?.delete(e)) this.rowCount[row]!--;
    }
  }

  private topicInsert(t: string, e: Entry) {
    const key = this.topicKey(e.room, t);
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

  private topicRemove(t: string, e: Entry) {
    const key = this.topicKey(e.room, t);
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
    for (const t of e.topics) this.topicRemove(t, e);
    this.generalRemove(e);
  }
}
