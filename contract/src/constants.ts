import type { RoomKind } from './rooms.ts';

// Every constant of the product specification that client and server share lives here once; the
// client's own animation and toast timings live in pwa/src/lib/uiConstants.ts.

export const MIN_AGE = 18;
export const MAX_AGE = 99;
export const DEFAULT_AGE = 18;
export const DEFAULT_LEVEL = 1;
export const CONSECUTIVE_DAYS_START = 1;

export const SOCKET_RECONNECTION = {
  reconnection: true,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  reconnectionAttempts: 5,
} as const;

export const CACHE_KEEP_UNUSED_S = 60;

/** Where a banned or suspended person asks the team to look again. */
export const APPEAL_PATH = '/appeal';

export const MESSAGE_MAX_BYTES = 65536;
export const MESSAGING_REQUEST_TIMEOUT_MS = 15_000;

/** How many recent partners are avoided, and for how long a search must have waited to accept them again. */
export const RECENT_PARTNERS = 3;
export const RECENT_PARTNER_COOLDOWN_MS = 10_000;

export const DEFAULT_PREMIUM_TIER = 'free tier';
export const GENDERS = ['male', 'female', 'other'] as const;
export const GENDER_FILTERS = ['All', ...GENDERS] as const;
/** The room kinds a search asks the matchmaker for. */
export const ROOM_TYPES = ['textChat', 'videoChat'] as const satisfies readonly RoomKind[];
export const BACKGROUND_VIDEO_FILTERS = ['none', 'blur', 'grayscale'] as const;

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;
export const REFRESH_COOKIE_NAME = 'parley_refresh';
export const REFRESH_COOKIE_PATH = '/api/auth';

export const LOGIN_FAILURES_PER_USERNAME = 5;
export const LOGIN_FAILURES_PER_ADDRESS = 20;
export const LOGIN_FAILURE_WINDOW_S = 15 * 60;
/** Failed sign-ins (per name or per address, within the window) after which a proof of work is asked for. */
export const POW_AFTER_LOGIN_FAILURES = 3;
/** How long a proof-of-work challenge may be solved and used; a used solution is remembered this long. */
export const POW_CHALLENGE_TTL_S = 10 * 60;
/** Hashes a browser tries on average per challenge (POW_DIFFICULTY sets it): `npm run bench:pow` measures the solve time. */
export const POW_DIFFICULTY = 50_000;
/** Sign-up attempts one address may make per window (SIGNUPS_PER_ADDRESS sets the number). */
export const SIGNUPS_PER_ADDRESS = 10;
export const SIGNUP_WINDOW_S = 60 * 60;
/** A day's sign-ups from one address: this many hours' worth (SIGNUPS_PER_ADDRESS × this). */
export const SIGNUP_DAY_FACTOR = 5;
/** Accounts one browser (its device cookie) may make a day. */
export const SIGNUPS_PER_DEVICE = 3;

export const JSON_BODY_LIMIT = '100kb';
