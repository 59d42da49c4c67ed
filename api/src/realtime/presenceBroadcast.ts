import {
  ONLINE_PAGE_SIZE,
  PRESENCE_COALESCE_MS,
  type OnlineUser,
  type OnlineUsersDelta,
  type OnlineUsersPage,
} from '@parley/contract/presence';
import type { Presence } from './presence.ts';
import { Refusal } from './refusals.ts';

/** Where presence updates go; realtime/server.ts implements it with socket.io. */
export type PresenceSink = {
  /** A first page to sockets that just connected (the same page to each of them). */
  firstPage(socketIds: string[], page: OnlineUsersPage): void;
  /** The new count to every socket of this process. */
  count(count: number): void;
  /** The changes among what one socket holds. */
  delta(socketId: string, delta: OnlineUsersDelta): void;
};

/** The ids of the friends of each user: one lookup for every newcomer of a beat, not a query per connection. */
export type FriendIds = (userIds: readonly string[]) => Promise<Map<string, string[]>>;

/**
 * Changes go to every client, so with many online they are batched longer: 200 ms, up to 600 ms
 * from 1000 online. Sending a count to ten thousand sockets takes a few hundred ms more, and the
 * online count must reach everyone within a second.
 */
export const DELTA_INTERVAL_MAX_MS = 600;
export function deltaInterval(online: number): number {
  return Math.min(DELTA_INTERVAL_MAX_MS, Math.round(PRESENCE_COALESCE_MS * (1 + online / 500)));
}

/**
 * Friends first on a first page, but never the whole page: the rest of it starts the list by userId,
 * which is what its cursor continues (friends beyond these are in the later pages).
 */
const MAX_FRIENDS_FIRST = ONLINE_PAGE_SIZE - 10;

/** What one socket holds of the online list, and whose friend it is. */
type Holder = {
  userId: string;
  held: Set<string>;
  friends: ReadonlySet<string>;
  cursor: string | null;
  /** Until its first page is out, a socket takes in nobody (that page starts its list). */
  pending: boolean;
};

/**
 * Presence to this process's sockets. Each socket holds its first page and the pages it asked
 * for; changes are coalesced, and a socket hears only of what it holds: held users who went
 * offline, users who came online while it holds fewer than a page or who are its friends, and
 * always the count. Work per change is O(sockets concerned), not O(sockets × online).
 */
export class PresenceBroadcaster {
  private readonly changed = new Map<string, OnlineUser | null>();
  private newcomers: string[] = [];
  private readonly holders = new Map<string, Holder>();
  /** userId → the sockets holding that user. */
  private readonly heldBy = new Map<string, Set<string>>();
  /** userId → the sockets whose user is that user's friend. */
  private readonly friendOf = new Map<string, Set<string>>();
  /** Sockets holding fewer than a page: they take in whoever comes online. */
  private readonly hungry = new Set<string>();
  private pagesTimer: NodeJS.Timeout | undefined;
  private deltaTimer: NodeJS.Timeout | undefined;
  /** Pages and deltas run one after the other, so a page read never interleaves a delta's bookkeeping. */
  private work: Promise<void> = Promise.resolve();
  private closed = false;
  /** The online count at the last delta, to size the next interval. */
  private online = 0;

  constructor(
    private readonly presence: Presence,
    private readonly sink: PresenceSink,
    private readonly onError: (err: unknown) => void,
    private readonly friendIdsOf: FriendIds = async () => new Map(),
  ) {}

  userOnline(user: OnlineUser) {
    this.changed.set(user.userId, user);
    this.scheduleDelta();
  }

  userOffline(userId: string) {
    this.changed.set(userId, null);
    this.scheduleDelta();
  }

  /** A socket connected; its first page goes out within PRESENCE_COALESCE_MS, with others' of the same beat. */
  socketConnected(socketId: string, userId: string) {
    this.holders.set(socketId, { userId, held: new Set(), friends: new Set(), cursor: null, pending: true });
    this.newcomers.push(socketId);
    if (this.pagesTimer || this.closed) return;
    this.pagesTimer = setTimeout(() => {
      this.pagesTimer = undefined;
      this.serially(() => this.sendFirstPages());
    }, PRESENCE_COALESCE_MS);
  }

  socketDisconnected(socketId: string) {
    const h = this.holders.get(socketId);
    if (!h) return;
    this.holders.delete(socketId);
    this.hungry.delete(socketId);
    for (const id of h.held) this.unindex(this.heldBy, id, socketId);
    for (const f of h.friends) this.unindex(this.friendOf, f, socketId);
  }

  /** The page after `cursor`, which must be the one this socket was last given. */
  async more(socketId: string, cursor: string): Promise<OnlineUsersPage> {
    const h = this.holders.get(socketId);
    if (!h || h.cursor !== cursor) throw new Refusal('That page of the online list is not available.', 'invalid_cursor');
    // Once asked, a second request for the same page is refused until this one is answered.
    h.cursor = null;
    const users = await this.presence.page(cursor, ONLINE_PAGE_SIZE);
    const page = { count: await this.presence.count(), users, cursor: users.length < ONLINE_PAGE_SIZE ? null : users.at(-1)!.userId };
    if (!this.holders.has(socketId)) return page;
    h.cursor = page.cursor;
    for (const u of users) this.hold(socketId, h, u.userId);
    return page;
  }

  close() {
    this.closed = true;
    clearTimeout(this.pagesTimer);
    clearTimeout(this.deltaTimer);
  }

  private serially(task: () => Promise<void>) {
    this.work = this.work.then(task).catch(this.onError);
  }

  private index(map: Map<string, Set<string>>, key: string) {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    return set;
  }

  private unindex(map: Map<string, Set<string>>, key: string, socketId: string) {
    const set = map.get(key);
    if (!set) return;
    set.delete(socketId);
    if (set.size === 0) map.delete(key);
  }

  private hold(socketId: string, h: Holder, userId: string) {
    if (h.held.has(userId)) return;
    h.held.add(userId);
    this.index(this.heldBy, userId).add(socketId);
    if (h.held.size >= ONLINE_PAGE_SIZE) this.hungry.delete(socketId);
  }

  private release(socketId: string, h: Holder, userId: string) {
    h.held.delete(userId);
    if (h.held.size < ONLINE_PAGE_SIZE) this.hungry.add(socketId);
  }

  private async sendFirstPages() {
    const newcomers = this.newcomers.filter((id) => this.holders.has(id));
    this.newcomers = [];
    if (newcomers.length === 0) return;
    const userIds = new Set(newcomers.map((id) => this.holders.get(id)!.userId));
    // Without friends (their lookup failed), presence still works: the pages are by userId alone.
    const friendsOf = await this.friendIdsOf([...userIds]).catch((err: unknown) => {
      this.onError(err);
      return new Map<string, string[]>();
    });
    const [count, start] = await Promise.all([this.presence.count(), this.presence.page(null, ONLINE_PAGE_SIZE)]);
    const cursor = start.length < ONLINE_PAGE_SIZE ? null : start.at(-1)!.userId;
    // Those with no friend online share one page, encoded once.
    const plain: string[] = [];
    for (const socketId of newcomers) {
      const h = this.holders.get(socketId);
      if (!h) continue;
      const friendIds = friendsOf.get(h.userId) ?? [];
      h.friends = new Set(friendIds);
      for (const f of h.friends) this.index(this.friendOf, f).add(socketId);
      const friends = friendIds.length === 0 ? [] : (await this.presence.online(friendIds)).slice(0, MAX_FRIENDS_FIRST);
      // Gone meanwhile: its disconnect has undone the indexes.
      if (!this.holders.has(socketId)) continue;
      const shown = new Set(friends.map((f) => f.userId));
      const rest = start.slice(0, ONLINE_PAGE_SIZE - friends.length).filter((u) => !shown.has(u.userId));
      // A page cut short by friends continues after its own last user, not the shared page's.
      const others = ONLINE_PAGE_SIZE - friends.length;
      const own = friends.length === 0 ? cursor : start.length < others ? null : start[others - 1]!.userId;
      h.cursor = own;
      h.pending = false;
      const users = [...friends, ...rest];
      for (const u of users) this.hold(socketId, h, u.userId);
      if (h.held.size < ONLINE_PAGE_SIZE) this.hungry.add(socketId);
      if (friends.length === 0) plain.push(socketId);
      else this.sink.firstPage([socketId], { count, users, cursor: own });
    }
    if (plain.length > 0) this.sink.firstPage(plain, { count, users: start, cursor });
  }

  private scheduleDelta() {
    if (this.deltaTimer || this.closed) return;
    this.deltaTimer = setTimeout(() => {
      this.deltaTimer = undefined;
      this.serially(() => this.flushDelta());
    }, deltaInterval(this.online));
  }

  private async flushDelta() {
    const changed = [...this.changed];
    this.changed.clear();
    if (changed.length === 0) return;
    this.online = await this.presence.count();
    const per = new Map<string, { added: OnlineUser[]; removed: string[] }>();
    const of = (socketId: string) => {
      let d = per.get(socketId);
      if (!d) per.set(socketId, (d = { added: [], removed: [] }));
      return d;
    };
    for (const [userId, user] of changed) {
      if (user) continue;
      for (const socketId of this.heldBy.get(userId) ?? []) {
        const h = this.holders.get(socketId);
        if (h) this.release(socketId, h, userId);
        of(socketId).removed.push(userId);
      }
      this.heldBy.delete(userId);
    }
    for (const [userId, user] of changed) {
      if (!user) continue;
      for (const socketId of [...(this.friendOf.get(userId) ?? []), ...this.hungry]) {
        const h = this.holders.get(socketId);
        if (!h || h.pending || h.held.has(userId)) continue;
        this.hold(socketId, h, userId);
        of(socketId).added.push(user);
      }
    }
    this.sink.count(this.online);
    for (const [socketId, d] of per) this.sink.delta(socketId, { ...d, count: this.online });
  }
}
