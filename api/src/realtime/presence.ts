import { PRESENCE_COALESCE_MS, type OnlineUser, type OnlineUsersDelta } from '@parley/contract/presence';

/**
 * Who is online: per user, however many tabs (sockets) they have. Asynchronous so a Redis-backed
 * implementation (several API processes) can replace the in-process one without touching callers.
 */
export interface Presence {
  /** Records a socket; resolves true when its user just came online. */
  join(socketId: string, user: OnlineUser): Promise<boolean>;
  /** Forgets a socket; resolves true when it was its user's last one. */
  leave(socketId: string, userId: string): Promise<boolean>;
  list(): Promise<OnlineUser[]>;
  count(): Promise<number>;
  isOnline(userId: string): Promise<boolean>;
}

export function createInProcessPresence(): Presence {
  const users = new Map<string, { user: OnlineUser; sockets: Set<string> }>();
  // The list is rebuilt only after a change, not for every newcomer.
  let cached: OnlineUser[] | undefined;
  return {
    async join(socketId, user) {
      const entry = users.get(user.userId);
      if (entry) {
        entry.sockets.add(socketId);
        return false;
      }
      users.set(user.userId, { user, sockets: new Set([socketId]) });
      cached = undefined;
      return true;
    },
    async leave(socketId, userId) {
      const entry = users.get(userId);
      if (!entry || !entry.sockets.delete(socketId) || entry.sockets.size > 0) return false;
      users.delete(userId);
      cached = undefined;
      return true;
    },
    async list() {
      return (cached ??= [...users.values()].map((e) => e.user));
    },
    async count() {
      return users.size;
    },
    async isOnline(userId) {
      return users.has(userId);
    },
  };
}

/** Where the coalesced presence updates go; realtime/server.ts implements it with socket.io rooms. */
export type PresenceSink = {
  /** The full list to sockets that just connected. */
  snapshot(socketIds: string[], list: OnlineUser[]): void;
  /** Changes to the delta subscribers. */
  delta(delta: OnlineUsersDelta): void;
  /** The full list to the full-list subscribers. */
  fullList(list: OnlineUser[]): void;
};

/** Deltas go to every client, so with many online they are batched longer: 200 ms, up to 1 s from 2000 online. */
export function deltaInterval(online: number): number {
  return Math.min(1000, Math.round(PRESENCE_COALESCE_MS * (1 + online / 500)));
}

/** Full-list broadcasts cost O(online²) bytes, so their interval grows with the square of the count. */
export function fullListInterval(online: number): number {
  return Math.min(30_000, Math.max(PRESENCE_COALESCE_MS, Math.round(PRESENCE_COALESCE_MS * (online / 250) ** 2)));
}

/**
 * Coalesces presence changes: at most one delta broadcast per PRESENCE_COALESCE_MS, the full list
 * to new sockets on the same beat, and the full list to everyone else at fullListInterval().
 */
export class PresenceBroadcaster {
  private readonly changed = new Map<string, OnlineUser | null>();
  private newcomers: string[] = [];
  private snapshotTimer: NodeJS.Timeout | undefined;
  private deltaTimer: NodeJS.Timeout | undefined;
  private fullTimer: NodeJS.Timeout | undefined;
  private lastFull = 0;
  private closed = false;
  /** The online count at the last delta, to size the next interval. */
  private online = 0;

  constructor(
    private readonly presence: Presence,
    private readonly sink: PresenceSink,
    private readonly onError: (err: unknown) => void,
  ) {}

  userOnline(user: OnlineUser) {
    this.changed.set(user.userId, user);
    this.scheduleDelta();
    this.scheduleFull();
  }

  userOffline(userId: string) {
    this.changed.set(userId, null);
    this.scheduleDelta();
    this.scheduleFull();
  }

  socketConnected(socketId: string) {
    this.newcomers.push(socketId);
    // Newcomers get their list within PRESENCE_COALESCE_MS, in one encoded broadcast.
    if (this.snapshotTimer || this.closed) return;
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = undefined;
      const newcomers = this.newcomers;
      this.newcomers = [];
      this.presence
        .list()
        .then((list) => this.sink.snapshot(newcomers, list))
        .catch(this.onError);
    }, PRESENCE_COALESCE_MS);
  }

  close() {
    this.closed = true;
    clearTimeout(this.snapshotTimer);
    clearTimeout(this.deltaTimer);
    clearTimeout(this.fullTimer);
  }

  private scheduleDelta() {
    if (this.deltaTimer || this.closed) return;
    this.deltaTimer = setTimeout(() => {
      this.deltaTimer = undefined;
      this.flushDelta().catch(this.onError);
    }, deltaInterval(this.online));
  }

  private scheduleFull() {
    if (this.fullTimer || this.closed) return;
    this.presence
      .count()
      .then((online) => {
        if (this.fullTimer || this.closed) return;
        const wait = Math.max(PRESENCE_COALESCE_MS, this.lastFull + fullListInterval(online) - Date.now());
        this.fullTimer = setTimeout(() => {
          this.fullTimer = undefined;
          this.lastFull = Date.now();
          this.presence
            .list()
            .then((list) => this.sink.fullList(list))
            .catch(this.onError);
        }, wait);
      })
      .catch(this.onError);
  }

  private async flushDelta() {
    const changed = [...this.changed];
    this.changed.clear();
    if (changed.length === 0) return;
    const added: OnlineUser[] = [];
    const removed: string[] = [];
    for (const [id, u] of changed) {
      if (u) added.push(u);
      else removed.push(id);
    }
    this.online = await this.presence.count();
    this.sink.delta({ added, removed, count: this.online });
  }
}
