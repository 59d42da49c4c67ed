import type { AuthOptions, ErrorInfo, Message, Realtime, RealtimeChannel } from 'ably';
import { ABLY_STATUS_PATH, ablyChannel, type AblyStatus } from '@parley/contract/groups';
import { MESSAGING_REQUEST_TIMEOUT_MS } from '@parley/contract/constants';
import { fetchAblyTokenRequest, RealtimeTokenError } from './ablyToken';

/**
 * Group rooms' live traffic through Ably, when the server has an Ably key. The `ably` client
 * gets its token requests from the API (ABLY_TOKEN_PATH, through `authCallback` so a failure
 * says the product's words: see ablyToken.ts), whose capability is the rooms the user
 * belongs to; everything sent still goes through the API over socket.io, which checks and stores
 * it. Whether the server has a key it says at ABLY_STATUS_PATH (cached by the browser); without
 * one no token is asked for and socket.io carries the rooms: a stored room listens to both, so its
 * page does not know which one is in use.
 */

/** How long a room's page waits for its channel before joining anyway (what the wait missed comes as a gap). */
const ATTACH_WAIT_MS = 5000;
const TOKEN_TIMEOUT_MARGIN_MS = 1000;

let accessToken: string | null = null;
let client: Promise<Realtime | null> | null = null;
/** Said once per run of failures: the client retries on its own, and a page hears of it again only after a success. */
let failing = false;
const problemListeners = new Set<(problem: RealtimeTokenError) => void>();
let ErrorInfoClass: typeof ErrorInfo | null = null;

/** Ably error code for a token callback that failed (the client retries it; 403 alone is final). */
const AUTH_CALLBACK_ERROR_CODE = 40170;

const authCallback: NonNullable<AuthOptions['authCallback']> = (_params, callback) => {
  const token = accessToken;
  if (!token) return callback('signed out', null);
  fetchAblyTokenRequest(token).then(
    (tokenRequest) => {
      failing = false;
      callback(null, tokenRequest as never);
    },
    (err: unknown) => {
      const problem = err instanceof RealtimeTokenError ? err : new RealtimeTokenError(String(err), 0);
      if (!failing) for (const l of problemListeners) l(problem);
      failing = true;
      // With a code of its own the client keeps the status (it would turn a bare one into 401).
      callback(
        ErrorInfoClass ? new ErrorInfoClass(problem.message, AUTH_CALLBACK_ERROR_CODE, problem.statusCode || 401) : problem.message,
        null,
      );
    },
  );
};
const authOptions = (): AuthOptions => ({ authCallback });

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
  const ably = await import('ably');
  const { Realtime } = ably;
  ErrorInfoClass = ably.ErrorInfo;
  // Connected once a room is followed: a token for no room at all has nothing to allow.
  return new Realtime({
    ...authOptions(),
    autoConnect: false,
    // The client gives up on a token callback after this; ours answers 'Request timed out' first.
    realtimeRequestTimeout: MESSAGING_REQUEST_TIMEOUT_MS + TOKEN_TIMEOUT_MARGIN_MS,
  });
}

/**
 * Follows a group room's channel: `onEvent` gets what the API published there (the same events
 * and payloads as socket.io's), `onGap` is called when the channel may have missed messages (it
 * attached late, or again without resuming), so the page catches up from the last id it holds.
 * `onProblem` hears why the token could not be had (once per run of failures; the client keeps
 * trying, and a later attach is a gap). Resolves, with the way to stop, once the channel is
 * attached or the wait is over.
 */
export async function followHostedRoom(
  roomId: string,
  onEvent: (name: string, data: unknown) => void,
  onGap: () => void,
  onProblem?: (problem: RealtimeTokenError) => void,
): Promise<() => void> {
  const ably = await (client ??= connect());
  if (!ably) return () => undefined;
  if (onProblem) problemListeners.add(onProblem);
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
      // A failed token call was told through onProblem; connecting anyway lets the client retry it.
      await ably.auth.authorize(undefined, authOptions()).catch(() => undefined);
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
    if (onProblem) problemListeners.delete(onProblem);
    channel.unsubscribe(listener);
    channel.off('attached', onState);
    channel.off('update', onState);
    void channel.detach().catch(() => undefined);
  };
}
