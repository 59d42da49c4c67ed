import type { TokenUser } from '@parley/contract/auth';
import { chatEvents, SEARCH_STATUS_EVERY_MS } from '@parley/contract/matchmaking';
import type {
  ChatFilters,
  PartnerLeft,
  PartnerPresence,
  RoomSetup,
  RoomType,
  SearchingState,
  SearchStatus,
  SocketError,
  StartSearch,
} from '@parley/contract/matchmaking';
import type { RoomEventSource } from '../deps.ts';
import { Refusal } from '../realtime/refusals.ts';
import { SAFETY_ERR } from '@parley/contract/safety';
import type { Seeker } from './matcher.ts';
import type { Match, Matchmaker, MatchListener } from './matchmaker.ts';
import { Population } from './population.ts';
import { searchMatched } from '../platform/metrics.ts';
import { matchTerms, NO_PROFILE, type MatchProfile } from './matchProfile.ts';

/** How searches reach sockets; chat/socket.ts implements it with socket.io. */
export interface SearchOutbox {
  searching(socketId: string, state: SearchingState): void;
  matched(socketId: string, setup: RoomSetup): void;
  /** The partner is still away in a room taken back without being asked for (see takeBackUnseen()). */
  partnerAway(socketId: string, away: PartnerPresence): void;
  /** A step the server took on its own (a requeue) failed: the client stops waiting for it. */
  error(socketId: string, error: SocketError): void;
  /** How a waiting search stands (who is online, searching, fitting its filters). */
  status(socketId: string, status: SearchStatus): void;
}

/** The rooms (api/src/rooms, handed over by server.ts) as searches use them. */
export type SearchRooms = RoomEventSource & {
  open(
    roomId: string,
    kind: RoomType,
    socketIds: string[],
    remote?: { members: Record<string, { userId: string; home: string }>; announce: boolean },
  ): void;
  /** Scaled out: a match for a socket gone meanwhile ends the room for the other side, in another process. */
  decline(roomId: string, socketId: string, partnerSocketId: string): void;
  leave(socketId: string, reason: PartnerLeft['reason']): void;
  inRoom(socketId: string): boolean;
  heldFor(resumeKey: string): { socketId: string; userId: string; roomId: string | undefined } | undefined;
  takeBackHeld(resumeKey: string, socketId: string): { partnerAway: boolean } | undefined;
  endHeldFor(resumeKey: string, userId: string): void;
};

export type SearchesDeps = {
  rooms: SearchRooms;
  outbox: SearchOutbox;
  createMatchmaker(onMatch: MatchListener): Matchmaker;
  /** Users this one blocked or was blocked by. */
  blocksOf(userId: string): Promise<ReadonlySet<string>>;
  /** Reported by several people and not reviewed yet: matched only among themselves (safety/). */
  inReview?(userId: string): Promise<boolean>;
  /** A new account linked to a banned one, until its history is clean: text chat only (safety/). */
  restricted?(userId: string): Promise<boolean>;
  recordTopics(userId: string, topics: string[]): void;
  /** The user's languages and chosen country (read at each search, so a changed profile counts at once). */
  profileOf?(userId: string): Promise<MatchProfile>;
  /** Stores the browser's languages as a profile's first ones (it listed none). */
  saveDefaultLanguages?(userId: string, languages: string[]): Promise<void>;
  /** The attempt of a video room's call, when it was placed again (rtc/). */
  callAttempt?(roomId: string): number;
  onError(err: unknown): void;
  /** How long a search waits before its first status, and between the next (tests shorten it). */
  statusEveryMs?: number;
  /** Scaled out: this process's instance id; a match's sides may then be in two processes. */
  home?: string;
  /**
   * Scaled out: each page's last search, kept where every process can read it, so a page that takes
   * its chat back in another process can skip to the next stranger with the same search.
   */
  lastSearches?: { save(resumeKey: string, search: StartSearch): void; load(resumeKey: string): Promise<StartSearch | undefined> };
};

/** One socket's search: it belongs to the socket (tab) that started it. */
type Search = {
  socketId: string;
  user: TokenUser;
  search: StartSearch | undefined;
  /** The client's name for its current search (start or next), echoed in what answers it. */
  searchId: string | undefined;
  /** The recent partners the current search may meet again without its cooldown (that search only). */
  meetAgain?: readonly string[] | undefined;
  searching: boolean;
  /** What `matched` told this socket about its room (without the search id): the search's answer. */
  setup: RoomSetup | undefined;
  /** Bumped by every start/stop so a late async step of an older request does nothing. */
  generation: number;
  /** The socket's connection dropped and its room is held: the search waits for the page under the old socket id. */
  held: boolean;
  /** The numbers of the last status sent for the current search, to send only changes. */
  lastStatus: string | undefined;
  /** The page's key (user and tab), when it named itself. */
  resumeKey: string | undefined;
  /** performance.now() when the current search began waiting (for the time-to-match metric). */
  since?: number;
  /** The country of the socket's address (geo database), when known. */
  detectedCountry: string | null;
  /** The browser's languages (Accept-Language): a profile that lists none takes them at its first search. */
  browserLanguages: string[];
  /** The countries the current search requires (near me resolved), for its status. */
  lastCountries?: readonly string[];
};

/** A waiting search's next status; the queue is in time order, as every wait is the same. */
type StatusDue = { s: Search; generation: number; at: number };

/**
 * Users' searches for a stranger (text or video) and their answers: the matchmaker's client. A
 * match opens a room of two (api/src/rooms); skip, stop and automatic reconnect start from here.
 * Domain logic only (no socket.io types).
 */
export class Searches {
  /** By socket id; a held socket's search stays under that id until its page is back. */
  private readonly searches = new Map<string, Search>();
  private readonly matchmaker: Matchmaker;
  private readonly rooms: SearchRooms;
  /** Who is online, by gender and age: what fits a search's filters, without looking at anyone. */
  private readonly population = new Population();
  private readonly statusEveryMs: number;
  private statusQueue: StatusDue[] = [];
  private statusHead = 0;
  private statusTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly deps: SearchesDeps) {
    this.rooms = deps.rooms;
    this.statusEveryMs = deps.statusEveryMs ?? SEARCH_STATUS_EVERY_MS;
    this.matchmaker = deps.createMatchmaker((m) => this.onMatch(m));
    this.rooms.on('left', (e) => {
      const s = this.searches.get(e.member.socketId);
      if (!s) return;
      s.setup = undefined;
      // A held page has nothing left to take back: its search goes with its socket.
      if (e.held) this.searches.delete(e.member.socketId);
      else if (e.by !== s.socketId && s.search?.automaticReconnect) this.searchOnOrGiveUp(s, () => this.requeue(s));
    });
    this.rooms.on('held', (e) => {
      const s = this.searches.get(e.member.socketId);
      if (!s) return;
      s.generation++;
      s.held = true;
    });
    this.rooms.on('resumed', (e) => {
      const s = this.searches.get(e.previousSocketId);
      if (!s) return this.searchOfElsewhere(e.member.socketId);
      const fresh = this.searches.get(e.member.socketId);
      this.searches.delete(e.previousSocketId);
      s.socketId = e.member.socketId;
      if (fresh) s.user = fresh.user;
      s.generation++;
      s.held = false;
      this.searches.set(s.socketId, s);
    });
  }

  connect(socketId: string, user: TokenUser, resumeKey?: string, detectedCountry: string | null = null, browserLanguages: string[] = []) {
    this.searches.set(socketId, {
      resumeKey,
      detectedCountry,
      browserLanguages,
      socketId,
      user,
      search: undefined,
      searchId: undefined,
      searching: false,
      setup: undefined,
      generation: 0,
      held: false,
      lastStatus: undefined,
    });
    this.population.join(socketId, user);
    this.deps
      .profileOf?.(user.userId)
      .then((p) => this.population.describe(socketId, p.speaks, p.hideCountry ? null : (p.country ?? detectedCountry)))
      .catch(() => undefined);
    // Load the block list and the review state now so that starting a search does not wait for
    // the database (the restriction is read with the profile above, in the same statement).
    this.deps.blocksOf(user.userId).catch(() => undefined);
    this.deps.inReview?.(user.userId).catch(() => undefined);
  }

  /**
   * A new search. `resumeKey` names the page when it can have a room held (rooms/): a page that
   * searches again instead of resuming never learnt of that room (see takeBackUnseen()).
   */
  async start(socketId: string, search: StartSearch, resumeKey?: string) {
    const s = this.searches.get(socketId);
    if (!s) return;
    if (search.roomType === 'videoChat' && this.deps.restricted) {
      const before = s.generation;
      if (await this.deps.restricted(s.user.userId)) throw new Refusal(SAFETY_ERR.restrictedVideo, 'restricted');
      // A stop or another start came in meanwhile: it is the newer wish.
      if (s.generation !== before) return;
    }
    if (resumeKey !== undefined && this.takeBackUnseen(s, resumeKey, search)) return;
    const generation = ++s.generation;
    this.rooms.leave(socketId, 'skip');
    if (s.searching) await this.matchmaker.cancel(socketId);
    // Meeting someone again is this search's wish only: the next one (a skip, a requeue) waits as usual.
    const { meetAgain, ...kept } = search;
    s.search = kept;
    s.meetAgain = meetAgain;
    s.searchId = search.searchId;
    s.searching = true;
    s.since = performance.now();
    if (resumeKey !== undefined) this.deps.lastSearches?.save(resumeKey, kept);
    this.deps.recordTopics(s.user.userId, search.filters.topics);
    await this.enqueue(s, generation, false);
  }

  /** Skip: ends the room and looks for the next partner with the same filters. */
  async next(socketId: string, searchId?: string) {
    const s = this.searches.get(socketId);
    if (!s) return;
    if (!s.search) throw new Refusal('Start a search first.', 'not_searching');
    // Already searching (a requeue crossed the skip): the search under way now answers to this name.
    s.searchId = searchId;
    if (s.searching) return;
    this.rooms.leave(socketId, 'skip');
    await this.requeue(s);
  }

  /** Automatic reconnect switched mid-search or mid-chat: the next requeue follows it. */
  setAutomaticReconnect(socketId: string, automaticReconnect: boolean) {
    const s = this.searches.get(socketId);
    if (s?.search) s.search = { ...s.search, automaticReconnect };
  }

  /** Stop: ends the search or the chat, and a room still held for this page (`resumeKey`). */
  async stop(socketId: string, resumeKey?: string) {
    const s = this.searches.get(socketId);
    if (!s) return;
    if (resumeKey !== undefined) this.rooms.endHeldFor(resumeKey, s.user.userId);
    await this.end(s, 'left');
  }

  /** The socket went (after rooms heard it): its search ends, unless its room is held for the page. */
  async disconnect(socketId: string) {
    this.population.leave(socketId);
    const s = this.searches.get(socketId);
    if (!s || s.held) return;
    this.searches.delete(socketId);
    await this.end(s, 'disconnected');
  }

  /** The socket is looking for a partner. */
  isSearching(socketId: string): boolean {
    return this.searches.get(socketId)?.searching === true;
  }

  /** Searches waiting for this room type (scaled out: in the shared queue). */
  waitingCount(roomType: RoomType): Promise<number> {
    return this.matchmaker.waitingCount(roomType);
  }

  async close() {
    this.closed = true;
    clearTimeout(this.statusTimer);
    await this.matchmaker.close();
  }

  // ---- internals ----

  /** The page took its chat back here from another process: its search comes from the shared record. */
  private searchOfElsewhere(socketId: string) {
    const s = this.searches.get(socketId);
    if (!s || s.search || s.resumeKey === undefined || !this.deps.lastSearches) return;
    const generation = s.generation;
    this.deps.lastSearches
      .load(s.resumeKey)
      .then((search) => {
        if (search && this.searches.get(socketId) === s && !s.search && s.generation === generation) {
          s.search = search;
          s.searchId = search.searchId;
        }
      })
      .catch(this.deps.onError);
  }

  private async end(s: Search, reason: PartnerLeft['reason']) {
    s.generation++;
    this.rooms.leave(s.socketId, reason);
    if (s.searching) {
      s.searching = false;
      await this.matchmaker.cancel(s.socketId);
    }
  }

  /**
   * The page's connection dropped as it was matched: `matched` never reached it, and back on a new
   * socket it sends its search again, under the same search id, rather than resuming. A text chat
   * then goes on: the page gets the room that search was matched to, instead of its partner waiting
   * out the grace for a page that will never ask for it. Any other start ends the held room at once:
   * a new search id (the page had moved on: a Next or a Stop lost with the old connection must not
   * put it back with the stranger it left) or other filters. A video room comes back with the
   * attempt of its call under way: the page joins that call, or, when its partner's failed
   * meanwhile, the partner's redial places it again (rtcEvents). True when the start is answered.
   */
  private takeBackUnseen(fresh: Search, key: string, search: StartSearch): boolean {
    const held = this.rooms.heldFor(key);
    if (!held || held.userId !== fresh.user.userId) return false;
    const s = this.searches.get(held.socketId);
    const roomId = held.roomId;
    const setup = s?.setup;
    const same =
      roomId !== undefined &&
      setup?.roomId === roomId &&
      search.searchId !== undefined &&
      search.searchId === s!.searchId &&
      s!.search?.roomType === search.roomType &&
      sameFilters(s!.search.filters, search.filters) &&
      !this.rooms.inRoom(fresh.socketId) &&
      !fresh.searching;
    // Taking the room back moves the held search to the fresh socket (the `resumed` event).
    const back = same ? this.rooms.takeBackHeld(key, fresh.socketId) : undefined;
    if (!back) {
      this.rooms.endHeldFor(key, fresh.user.userId);
      return false;
    }
    s!.search = search;
    const attempt = this.deps.callAttempt?.(roomId!) ?? 0;
    this.deps.outbox.matched(s!.socketId, withSearchId(attempt > 0 ? { ...setup!, callAttempt: attempt } : setup!, search.searchId));
    if (back.partnerAway) this.deps.outbox.partnerAway(s!.socketId, { roomId: roomId! });
    return true;
  }

  private async requeue(s: Search) {
    const generation = ++s.generation;
    s.meetAgain = undefined;
    s.searching = true;
    s.since = performance.now();
    await this.enqueue(s, generation, true);
  }

  /**
   * Puts the search in the queue. `searching` tells the client it waits (a requeue after a
   * partner left too); a search matched at once gets `matched` alone.
   */
  private async enqueue(s: Search, generation: number, requeued?: boolean) {
    const [blocked, inReview, stored] = await Promise.all([
      this.deps.blocksOf(s.user.userId),
      this.deps.inReview?.(s.user.userId) ?? false,
      this.deps.profileOf?.(s.user.userId) ?? NO_PROFILE,
    ]);
    let profile = stored;
    if (stored.speaks.length === 0 && s.browserLanguages.length > 0) {
      profile = { ...stored, speaks: s.browserLanguages };
      this.deps.saveDefaultLanguages?.(s.user.userId, s.browserLanguages).catch(this.deps.onError);
    }
    // A stop, a new start or a disconnect came in while the blocks were loading.
    if (s.generation !== generation || !s.searching || this.searches.get(s.socketId) !== s) return;
    const seeker: Seeker = {
      ticket: s.socketId,
      userId: s.user.userId,
      roomType: s.search!.roomType,
      gender: s.user.gender,
      age: s.user.age,
      filters: s.search!.filters,
      ...matchTerms(profile, s.detectedCountry, s.search!.filters),
      blocked,
      ...(s.meetAgain?.length ? { meetAgain: s.meetAgain } : {}),
      ...(inReview ? { inReview } : {}),
      ...(this.deps.home === undefined ? {} : { home: this.deps.home, profile: { username: s.user.username, avatar: s.user.avatar } }),
    };
    s.lastCountries = seeker.requireCountries;
    await this.matchmaker.enqueue(seeker);
    if (!s.searching || s.generation !== generation) return; // matched at once, or stopped meanwhile
    if (requeued !== undefined) this.deps.outbox.searching(s.socketId, withSearchId({ roomType: seeker.roomType, requeued }, s.searchId));
    s.lastStatus = undefined;
    this.scheduleStatus(s, generation);
  }

  // ---- how a waiting search stands ----
  //
  // Cost: one queue entry per waiting search (the same wait for all, so the queue stays in time
  // order and one timer serves it); each due entry costs one waitingCount per room type and run,
  // and Population.fitting(): at most 4 × 82 additions, whatever the number online or waiting. A
  // search's status is sent only when its numbers changed.

  private scheduleStatus(s: Search, generation: number) {
    this.statusQueue.push({ s, generation, at: performance.now() + this.statusEveryMs });
    this.armStatusTimer();
  }

  private armStatusTimer() {
    if (this.statusTimer || this.closed) return;
    const head = this.statusQueue[this.statusHead];
    if (!head) return;
    this.statusTimer = setTimeout(
      () => {
        this.statusTimer = undefined;
        this.sendDueStatuses().catch(this.deps.onError);
      },
      Math.max(0, Math.ceil(head.at - performance.now())),
    );
    this.statusTimer.unref?.();
  }

  private async sendDueStatuses() {
    const now = performance.now();
    const due: StatusDue[] = [];
    while (this.statusHead < this.statusQueue.length && this.statusQueue[this.statusHead]!.at <= now) {
      due.push(this.statusQueue[this.statusHead++]!);
    }
    if (this.statusHead > 1024 && this.statusHead * 2 > this.statusQueue.length) {
      this.statusQueue = this.statusQueue.slice(this.statusHead);
      this.statusHead = 0;
    }
    const waiting = new Map<RoomType, number>();
    const still = (d: StatusDue) =>
      this.searches.get(d.s.socketId) === d.s && d.s.searching && !d.s.held && d.s.generation === d.generation && d.s.search;
    for (const d of due) {
      if (!still(d)) continue;
      const roomType = d.s.search!.roomType;
      if (!waiting.has(roomType)) waiting.set(roomType, await this.matchmaker.waitingCount(roomType));
      if (!still(d)) continue;
      const status: SearchStatus = {
        roomType,
        online: this.population.online,
        // The user's own search is among those waiting.
        searching: Math.max(0, waiting.get(roomType)! - 1),
        fitting: this.population.fitting(d.s.search!.filters, d.s.user),
      };
      const { languages, countries, nearMe } = d.s.search!.filters;
      if (languages?.length) status.languageFitting = this.population.speaking(languages, d.s.socketId);
      if (countries?.length || nearMe) status.countryFitting = this.population.showing(d.s.lastCountries ?? [], d.s.socketId);
      const numbers = `${status.online}/${status.searching}/${status.fitting}/${status.languageFitting}/${status.countryFitting}`;
      if (numbers !== d.s.lastStatus) {
        d.s.lastStatus = numbers;
        this.deps.outbox.status(d.s.socketId, withSearchId(status, d.s.searchId));
      }
      this.statusQueue.push({ ...d, at: now + this.statusEveryMs });
    }
    this.armStatusTimer();
  }

  /**
   * A search the server starts on its own (requeue, a match whose other side vanished). Should it
   * fail (the block list could not be read), the client is told and the socket stops searching,
   * rather than showing "searching" for ever while it is in no queue.
   */
  private searchOnOrGiveUp(s: Search, search: () => Promise<void>) {
    const promise = search();
    const generation = s.generation;
    promise.catch((err: unknown) => {
      this.deps.onError(err);
      // A newer start, stop or skip since then is not this failure's to undo. (requeue bumps the
      // generation before it can fail, so the current one is this search's.)
      if (this.searches.get(s.socketId) !== s || !s.searching || s.generation !== generation) return;
      s.generation++;
      s.searching = false;
      this.matchmaker.cancel(s.socketId).catch(this.deps.onError);
      this.deps.outbox.error(
        s.socketId,
        withSearchId(
          { event: chatEvents.next, message: 'Could not look for a new partner. Press Start to try again.', code: 'internal' },
          s.searchId,
        ),
      );
    });
  }

  private onMatch(m: Match) {
    const here = (seeker: Seeker) => seeker.home === this.deps.home;
    if (!here(m.a) || !here(m.b)) {
      if (here(m.a)) this.onSplitMatch(m, m.a, m.b, true);
      else if (here(m.b)) this.onSplitMatch(m, m.b, m.a, false);
      return;
    }
    const a = this.searches.get(m.a.ticket);
    const b = this.searches.get(m.b.ticket);
    const live = (s: Search | undefined) => s !== undefined && s.searching && !this.rooms.inRoom(s.socketId);
    if (!live(a) || !live(b)) {
      // A side vanished between the match and now (possible with a remote matchmaker): the other searches on.
      for (const s of [a, b]) if (live(s)) this.searchOnOrGiveUp(s!, () => this.enqueue(s!, s!.generation));
      return;
    }
    a!.searching = false;
    b!.searching = false;
    this.rooms.open(m.roomId, m.roomType, [a!.socketId, b!.socketId]);
    this.tellMatched(m, a!, b!.user, m.a, m.b);
    this.tellMatched(m, b!, a!.user, m.b, m.a);
  }

  /**
   * Scaled out: one side of a match is in this process, the other in another one, which opens its
   * own side of the same room. Only the `a` side announces the room to the areas that follow rooms.
   */
  private onSplitMatch(m: Match, mine: Seeker, theirs: Seeker, announce: boolean) {
    const s = this.searches.get(mine.ticket);
    if (!s || !s.searching || s.held || this.rooms.inRoom(s.socketId)) {
      // Gone or stopped since the matcher took it: the room ends for the other side.
      this.rooms.decline(m.roomId, mine.ticket, theirs.ticket);
      return;
    }
    s.searching = false;
    const seat = { userId: theirs.userId, home: theirs.home!, username: theirs.profile?.username, avatar: theirs.profile?.avatar };
    this.rooms.open(m.roomId, m.roomType, [m.a.ticket, m.b.ticket], { members: { [theirs.ticket]: seat }, announce });
    const other = {
      userId: theirs.userId,
      username: theirs.profile?.username ?? '',
      avatar: theirs.profile?.avatar ?? '',
      age: theirs.age,
      gender: theirs.gender,
    };
    this.tellMatched(m, s, other, mine, theirs);
  }

  private tellMatched(
    m: Match,
    me: Search,
    other: Pick<TokenUser, 'userId' | 'username' | 'avatar' | 'age' | 'gender'>,
    seeker: Seeker,
    theirs: Seeker,
  ) {
    // The partner's country only as they show it (Seeker.country is null when they keep it to themselves).
    const shown = {
      ...(theirs.speaks?.length ? { languages: [...theirs.speaks] } : {}),
      ...(theirs.country ? { country: theirs.country } : {}),
    };
    const ex = m.exchange;
    const exchange = ex
      ? seeker === m.a
        ? { youLearn: ex.aLearns, theyLearn: ex.bLearns }
        : { youLearn: ex.bLearns, theyLearn: ex.aLearns }
      : undefined;
    me.setup = {
      roomId: m.roomId,
      roomType: m.roomType,
      receiver: {
        userId: other.userId,
        username: other.username,
        avatar: other.avatar,
        age: other.age,
        gender: other.gender,
        sharedTopics: m.sharedTopics,
        ...shown,
      },
      noCommonTopic: seeker.filters.topics.length > 0 && m.sharedTopics.length === 0,
      // Exactly one side places the video call: the smaller user id.
      initiator: me.user.userId < other.userId,
      ...(exchange ? { exchange } : {}),
    };
    this.deps.outbox.matched(me.socketId, withSearchId(me.setup, me.searchId));
    if (me.since !== undefined) searchMatched(m.roomType, me.since);
  }
}

/** Adds the client's search id to what answers that search, when it named one. */
const withSearchId = <T extends object>(payload: T, searchId: string | undefined): T & { searchId?: string } =>
  searchId === undefined ? payload : { ...payload, searchId };

/** The same filters, whatever the order of the topics. */
function sameFilters(a: ChatFilters, b: ChatFilters): boolean {
  return (
    a.gender === b.gender &&
    a.ageRange.minAge === b.ageRange.minAge &&
    a.ageRange.maxAge === b.ageRange.maxAge &&
    a.topics.length === b.topics.length &&
    a.topics.every((t) => b.topics.includes(t))
  );
}
