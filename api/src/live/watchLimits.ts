import { addressKey, normaliseAddress } from '../platform/address.ts';
import { LIVE_WATCHES_PER_ADDRESS, LIVE_WATCHES_PER_USER } from '@parley/contract/live';
import { DomainError } from '../platform/errors.ts';

/** One watch: a socket (its viewer key) in a stream, whose person and network it counts against. */
export type Watch = { roomId: string; viewerKey: string; userId: string; address?: string | undefined };

/**
 * The network an address stands for: an IPv4 address itself (also written as `::ffff:a.b.c.d`),
 * an IPv6 address its /64, which one household or phone usually holds whole.
 */
export function networkOf(address: string | undefined): string | undefined {
  return address && normaliseAddress(address) ? addressKey(address) : undefined;
}

const keyOf = (roomId: string, viewerKey: string) => `${roomId} ${viewerKey}`;

/**
 * The watches of the streams this process holds, by person and by network, so that one account
 * (whatever number of sockets it opens) or one address cannot take the SFU's ports. Every watch
 * counts, answered or not: each holds a peer connection. O(1) per change.
 */
export class WatchLimits {
  private readonly watches = new Map<string, { userId: string; network: string | undefined }>();
  private readonly byUser = new Map<string, Set<string>>();
  private readonly byNetwork = new Map<string, Set<string>>();

  constructor(
    private readonly limits: { perUser: number; perAddress: number } = {
      perUser: LIVE_WATCHES_PER_USER,
      perAddress: LIVE_WATCHES_PER_ADDRESS,
    },
  ) {}

  /** Counts a new watch (the same socket in the same stream again is the same watch), or refuses it. */
  take(w: Watch): void {
    const key = keyOf(w.roomId, w.viewerKey);
    if (this.watches.has(key)) return;
    const network = networkOf(w.address);
    if ((this.byUser.get(w.userId)?.size ?? 0) >= this.limits.perUser)
      throw new DomainError(
        'too_many',
        `You are already watching live video in ${this.limits.perUser} tabs or streams. Close one of them to watch this stream.`,
        'too_many_watches',
      );
    if (network !== undefined && (this.byNetwork.get(network)?.size ?? 0) >= this.limits.perAddress)
      throw new DomainError(
        'too_many',
        'Too many people on your network are watching live video on this server. Try again in a few minutes.',
        'too_many_watches_address',
      );
    this.watches.set(key, { userId: w.userId, network });
    add(this.byUser, w.userId, key);
    if (network !== undefined) add(this.byNetwork, network, key);
  }

  release(roomId: string, viewerKey: string): void {
    const key = keyOf(roomId, viewerKey);
    const w = this.watches.get(key);
    if (!w) return;
    this.watches.delete(key);
    remove(this.byUser, w.userId, key);
    if (w.network !== undefined) remove(this.byNetwork, w.network, key);
  }

  /** Watches counted now. */
  get size(): number {
    return this.watches.size;
  }
}

function add(index: Map<string, Set<string>>, owner: string, key: string) {
  const keys = index.get(owner) ?? new Set<string>();
  keys.add(key);
  index.set(owner, keys);
}

function remove(index: Map<string, Set<string>>, owner: string, key: string) {
  const keys = index.get(owner);
  keys?.delete(key);
  if (keys?.size === 0) index.delete(owner);
}
