import type { Message, Realtime, RealtimeChannel } from 'ably';
import { ABLY_STATUS_PATH, ABLY_TOKEN_PATH, ablyChannel, type AblyStatus } from '@parley/contract/groups';

/**
 * Group rooms' live traffic through Ably, when the server has an Ably key. The `ably` client
 * fetches its token requests from the API (`authUrl`), whose capability is the rooms the user
 * belongs to; everything sent still goes through the API over socket.io, which checks and stores
 * it. Whether the server has a key it says at ABLY_STATUS_PATH (cached by the browser); without
 * one no token is asked for and socket.io carries the rooms: a stored room listens to both, so its
 * page does not know which one is in use.
 */

/** How long a room's page waits for its channel before joining anyway (what the wait missed comes as a gap). */
const ATTACH_WAIT_MS = 5000;

let accessToken: string | null = null;
let client: Promise<Realtime | null> | null = null;
const authOptions = () => ({ authUrl: ABLY_TOKEN_PATH, authHeaders: { authorization: `Bearer ${accessToken ?? ''}` } });

/** The access token Ably's token requests go with; a new one re-authorises a client already connected. */
export function setHostedAccessToken(token: string | null) {
  if (token === accessToken) return;
  accessToken = token;
  const current = client;
  if (!token) {
    client = null;
    void current?.then((c) => c?.close());
    return;
  }
  void current?.then((c) => c?.auth.authorize(undefined, authOptions())).catch(() => undefined);
}

async function connect(): Promise<Realtime | null> {
  if (!accessToken) return null;
  // The server's configuration decides: without Ably, socket.io alone for this page's life.
  const status = await fetch(ABLY_STATUS_PATH, { credentials: 'same-origin' })
    .then((r) => (r.ok ? (r.json() as Promise<AblyStatus>) : null))
    .catch(() => null);
  if (status?.enabled === false) return null;
  if (status?.enabled !== true) {
    client = null; // not an answer (offline, the server away): ask again next time
    return null;
  }
  const { Realtime } = await import('ably');
  // Connected once a room is followed: a token for no room at all has nothing to allow.
  return new Realtime({ ...authOptions(), autoConnect: false });
}

/**
 * Follows a group room's channel: `onEvent` gets what the API published there (the same events
 * and payloads as socket.io's), `onGap` is called when the channel may have missed messages (it
 * attached late, or again without resuming), so the page catches up from the last id it holds.
 * Resolves, with the way to stop, once the channel is attached or the wait is over.
 */
export async function followHostedRoom(
  roomId: string,
  onEvent: (name: string, data: unknown) => void,
  onGap: () => void,
): Promise<() => void> {
  const ably = await (client ??= connect());
  if (!ably) return () => undefined;
  const channel: RealtimeChannel = ably.channels.get(ablyChannel(roomId));
  const listener = (m: Message) => {
    if (m.name) onEvent(m.name, m.data);
  };
  const onState = (change: { resumed: boolean }) => {
    if (!change.resumed) onGap();
  };
  let stopped = false;
  const attached = (async () => {
    try {
      // The token's capability is the user's rooms when it was signed: a room joined since needs a new one.
      await ably.auth.authorize(undefined, authOptions());
      ably.connect();
      await channel.subscribe(listener);
    } finally {
      // From here on (also after a failed first attach), attaching again without resuming is a gap.
      if (!stopped) {
        channel.on('attached', onState);
        channel.on('update', onState);
      }
    }
  })();
  const inTime = await Promise.race([
    attached.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), ATTACH_WAIT_MS)),
  ]);
  // Attached after the page joined: what was published in between came on neither path.
  if (!inTime) void attached.then(() => !stopped && onGap()).catch(() => undefined);
  return () => {
    stopped = true;
    channel.unsubscribe(listener);
    channel.off('attached', onState);
    channel.off('update', onState);
    void channel.detach().catch(() => undefined);
  };
}
