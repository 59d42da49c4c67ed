import { ERR } from '@parley/contract/errors';
import { MESSAGING_REQUEST_TIMEOUT_MS } from '@parley/contract/constants';
import { ABLY_TOKEN_PATH } from '@parley/contract/groups';

/**
 * Why the real-time messaging token could not be had, in the real-time client's own words (the
 * product's catalogue keeps them in English): `statusCode` as the client reports it, `code` the
 * server's own error code when its answer carried one.
 */
export class RealtimeTokenError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'RealtimeTokenError';
  }
}

/** The status the real-time client gives a token call that did not answer in time. */
export const REQUEST_TIMEOUT_STATUS = 408;

export const errorResponseMessage = (status: number) => `Error response received from server: ${status}`;

/**
 * Asks the API for a token request for the real-time messaging service with the session's access
 * token. A call that outlasts `timeoutMs` is abandoned with 'Request timed out' (408); a refusal
 * says its status; no answer at all (offline) is 'No Server Response'.
 */
export async function fetchAblyTokenRequest(
  accessToken: string,
  opts: { timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<Record<string, unknown>> {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? MESSAGING_REQUEST_TIMEOUT_MS;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    let res: Response;
    try {
      res = await doFetch(ABLY_TOKEN_PATH, {
        credentials: 'same-origin',
        headers: { authorization: `Bearer ${accessToken}` },
        signal: controller.signal,
      });
    } catch {
      if (timedOut) throw new RealtimeTokenError(ERR.requestTimedOut, REQUEST_TIMEOUT_STATUS);
      throw new RealtimeTokenError(ERR.noServerResponse, 0);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = null;
      if (timedOut) throw new RealtimeTokenError(ERR.requestTimedOut, REQUEST_TIMEOUT_STATUS);
    }
    if (!res.ok) {
      const code = (body as { code?: unknown } | null)?.code;
      throw new RealtimeTokenError(errorResponseMessage(res.status), res.status, typeof code === 'string' ? code : null);
    }
    // A token request is an object; anything else is an answer the client cannot use.
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new RealtimeTokenError(errorResponseMessage(res.status), res.status);
    return body as Record<string, unknown>;
  } finally {
    clearTimeout(timer);
  }
}
