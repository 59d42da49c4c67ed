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
  /** The same changes to sockets that hold the same users. */
  delta(socketIds: string[], delta: OnlineUsersDelta): void;
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

/**
 * Users held alike by a set of sockets. Sockets given the same first page start in one holding,
 * and every change a holding hears (a held user gone, a newcomer taken in while it is short of a
 * page) reaches all of its sockets alike, so they go on sharing it: the online list costs a set of
 * users per holding, not per socket. A socket that takes in something of its own (a friend, a
 * further page) gets a copy of its own first.
 */
type Holding = { users: Set<string>; sockets: Set<string> };

/** One socket: whose it is, what it holds (null until its first page is out) and whose friend it is. */
type Holder = {
  userId: string;
  holding: Holding | null;
  friends: ReadonlySet<string>;
  cursor: string | null;
};

const NO_FRIENDS: ReadonlySet<string> = new Set();

/**
 * Presence to this process's sockets. Each socket holds its first page and the pages it asked
 * for; changes are coalesced, and a socket hears only of what it holds: held users who went
 * offline, users who came online while it holds fewer than a page or who are its friends, and
 * always the count. Work per change is O(holdings concerned), not O(sockets × online).
 */
export class PresenceBroadcaster {
  private readonly changed = new Map<string, OnlineUser | null>();
  private newcomers: string[] = [];
  private readonly holders = new Map<string, Holder>();
  /** userId → the holdings that hold that user. */
  private readonly heldBy = new Map<string, Set<Holding>>();
  /** userId → the sockets whose user is that user's friend. */
  private readonly friendOf = new Map<string, Set<string>>();
  /** Holdings of fewer than a page: they take in whoever comes online. */
  private readonly hungry = new Set<Holding>();
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
    this.holders.set(socketId, { userId, holding: null, friends: NO_FRIENDS, cursor: null });
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
    if (h.holding) this.leave(h.holding, socketId);
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
    if (!this.holders.has(socketId) || !h.holding) return page;
    h.cursor = page.cursor;
    const own = this.own(socketId, h);
    for (const u of users) this.hold(own, u.userId);
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

  private unindex<T>(map: Map<string, Set<T>>, key: string, value: T) {
    const set = map.get(key);
    if (!set) return;
    set.delete(value);
    if (set.size === 0) map.delete(key);
  }

  private newHolding(userIds: Iterable<string>): Holding {
    const holding: Holding = { users: new Set(), sockets: new Set() };
    for (const id of userIds) this.hold(holding, id);
    if (holding.users.size < ONLINE_PAGE_SIZE) this.hungry.add(holding);
    return holding;
  }

  private join(holding: Holding, socketId: string, h: Holder) {
    holding.sockets.add(socketId);
    h.holding = holding;
  }

  /** A socket leaves its holding; the last one out takes it away. */
  private leave(holding: Holding, socketId: string) {
    holding.sockets.delete(socketId);
    if (holding.sockets.size > 0) return;
    for (const id of holding.users) this.unindex(this.heldBy, id, holding);
    this.hungry.delete(holding);
  }

  /** The socket's holding, copied for it alone first if others share it. */
  private own(socketId: string, h: Holder): Holding {
    const shared = h.holding!;
    if (shared.sockets.size === 1) return shared;
    const own = this.newHolding(shared.users);
    this.leave(shared, socketId);
    this.join(own, socketId, h);
    return own;
  }

  private hold(holding: Holding, userId: string) {
    if (holding.users.has(userId)) return;
    holding.users.add(userId);
    let by = this.heldBy.get(userId);
    if (!by) this.heldBy.set(userId, (by = new Set()));
    by.add(holding);
    if (holding.users.size >= ONLINE_PAGE_SIZE) this.hungry.delete(holding);
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
    // Those with no friend online share one page, encoded once, and one holding.
    const plain: string[] = [];
    let shared: Holding | undefined;
    for (const socketId of newcomers) {
      const h = this.holders.get(socketId);
      if (!h) continue;
      const friendIds = friendsOf.get(h.userId) ?? [];
      if (friendIds.length > 0) {
        h.friends = new Set(friendIds);
        for (const f of h.friends) {
          let of = this.friendOf.get(f);
          if (!of) this.friendOf.set(f, (of = new Set()));
          of.add(socketId);
        }
      }
      const friends = friendIds.length === 0 ? [] : (await this.presence.online(friendIds)).slice(0, MAX_FRIENDS_FIRST);
      // Gone meanwhile: its disconnect has undone the indexes.
      if (!this.holders.has(socketId)) continue;
      if (friends.length === 0) {
        h.cursor = cursor;
        this.join((shared ??= this.newHolding(start.map((u) => u.userId))), socketId, h);
        plain.push(socketId);
        continue;
      }
      const shown = new Set(friends.map((f) => f.userId));
      const rest = start.slice(0, ONLINE_PAGE_SIZE - friends.length).filter((u) => !shown.has(u.userId));
      // A page cut short by friends continues after its own last user, not the shared page's.
      const others = ONLINE_PAGE_SIZE - friends.length;
      h.cursor = start.length < others ? null : start[others - 1]!.userId;
      const users = [...friends, ...rest];
      this.join(this.newHolding(users.map((u) => u.userId)), socketId, h);
      this.sink.firstPage([socketId], { count, users, cursor: h.cursor });
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
    const per = new Map<Holding, { added: OnlineUser[]; removed: string[] }>();
    const of = (holding: Holding) => {
      let d = per.get(holding);
      if (!d) per.set(holding, (d = { added: [], removed: [] }));
      return d;
    };
    for (const [userId, user] of changed) {
      if (user) continue;
      for (const holding of this.heldBy.get(userId) ?? []) {
        holding.users.delete(userId);
        if (holding.users.size < ONLINE_PAGE_SIZE) this.hungry.add(holding);
        of(holding).removed.push(userId);
      }
      this.heldBy.delete(userId);
    }
    for (const [userId, user] of changed) {
      if (!user) continue;
      for (const holding of this.hungry) {
        if (holding.users.has(userId)) continue;
        this.hold(holding, userId);
        of(holding).added.push(user);
      }
      for (const socketId of this.friendOf.get(userId) ?? []) {
        const h = this.holders.get(socketId);
        if (!h?.holding || h.holding.users.has(userId)) continue;
        // A friend is this socket's own news: it leaves its shared holding with what that heard so far.
        const before = per.get(h.holding);
        const own = this.own(socketId, h);
        if (before && !per.has(own)) per.set(own, { added: [...before.added], removed: [...before.removed] });
        this.hold(own, userId);
        of(own).added.push(user);
      }
    }
    this.sink.count(this.online);
    for (const [holding, d] of per) if (holding.sockets.size > 0) this.sink.delta([...holding.sockets], { ...d, count: this.online });
  }
}
