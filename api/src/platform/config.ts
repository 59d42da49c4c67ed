import { z } from 'zod';
import { MIN_CHAT_SECONDS } from '@parley/contract/missions';
import { POW_DIFFICULTY, SIGNUPS_PER_ADDRESS } from '@parley/contract/constants';
import { LIVE_WATCHES_PER_ADDRESS } from '@parley/contract/live';

/** Every environment variable of the architecture, read and validated here once. */
const jsonArray = z.string().transform((s, ctx) => {
  try {
    const v: unknown = JSON.parse(s);
    if (!Array.isArray(v)) throw new Error('not an array');
    return v as RTCIceServerLike[];
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON array of ICE servers' });
    return z.NEVER;
  }
});

export type RTCIceServerLike = { urls: string | string[]; username?: string; credential?: string };

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /** shared_buffers of the embedded database (PostgreSQL memory units). */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, 'must be a PostgreSQL memory size such as 16MB')
    .default('16MB'),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  /** The passkeys' relying party: a registrable domain of the public address (default PUBLIC_URL's host name). */
  WEBAUTHN_RP_ID: optionalString.pipe(
    z
      .string()
      .regex(/^[a-z0-9.-]+$/i, 'must be a host name such as parley.example')
      .optional(),
  ),
  /** The origin pages use passkeys from (default PUBLIC_URL's origin). */
  WEBAUTHN_ORIGIN: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /**
   * An OpenID provider to use instead of Google (its /auth, /token and /userinfo); for the
   * end-to-end tests' local stand-in.
   */
  GOOGLE_OAUTH_BASE: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  ABLY_API_KEY: optionalString,
  /** Where Ably's REST API is (default Ably's own); tests point it at a local stand-in. */
  ABLY_REST_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** A folder of GIFs (and an optional tags.json) that the GIF picker offers; unset: no GIF library. */
  GIF_DIR: optionalString,
  /** A Tenor-compatible GIF search API (its /search and /posts), used only with GIF_PROVIDER_KEY; unset: never contacted. */
  GIF_PROVIDER_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  GIF_PROVIDER_KEY: optionalString,
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Where the Stripe API is (default Stripe's own); tests and stripe-mock point it at a local host. */
  STRIPE_API_BASE: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** ISO currency of donations, in lower case as Stripe writes it. */
  DONATION_CURRENCY: z
    .string()
    .regex(/^[a-z]{3}$/, 'must be a three-letter ISO currency code in lower case, such as usd')
    .default('usd'),
  /** Outgoing mail (`smtp://user:pass@host:587`, `smtps://…`); without it, no email (a local trial writes it to a folder). */
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional()),
  /** The From of outgoing mail, e.g. `Parley <no-reply@example.com>`. */
  MAIL_FROM: z.string().trim().min(3).max(200).default('Parley <no-reply@localhost>'),
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  ICE_SERVERS: optionalString.pipe(jsonArray.optional()),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  /** Prefix of every Redis key, so deployments (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]*$/, 'may use only letters, digits, :, _ and -')
    .default('parley:'),
  /** Prometheus metrics on a port of their own (GET /metrics); unset: none served there. */
  METRICS_PORT: optionalString.pipe(z.coerce.number<string | undefined>().int().min(0).max(65535).optional()),
  /** The address the metrics port listens on: this machine only unless told (0.0.0.0 in a container network). */
  METRICS_HOST: optionalString.transform((v) => v ?? '127.0.0.1'),
  /** A bearer token for the metrics: on METRICS_PORT when both are set, else GET /metrics on the main port asks for it. */
  METRICS_TOKEN: optionalString.pipe(z.string().min(24, 'must be at least 24 characters').optional()),
  /**
   * How long a SIGTERM's drain may take before the process exits anyway: its sockets move to other
   * replicas, its chats are handed over, its writes flushed. Kubernetes' terminationGracePeriodSeconds
   * must cover it plus the preStop pause (deploy/k8s/api.yaml).
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1000).max(600_000).default(25_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Folder of the built PWA that the server serves (default pwa/dist). */
  PWA_DIST: optionalString,
  SERVE_PWA: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Benchmarks only (bench/lib/server.ts): plain socket.io `ref:` events, the reference a bench compares with. Never set in production. */
  BENCH_REFERENCE: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
  PEERJS_MOUNT: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Public URL of a standalone peer-server (PEERJS_MOUNT=false); unset: same origin. */
  PEERJS_URL: optionalString.pipe(z.url().optional()),
  /**
   * Reverse proxies in front of the server, each appending to X-Forwarded-For: the client's address
   * is the entry this many from the right. `true` is 1, `false` 0.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(true|false|\d{1,2})$/, 'must be the number of proxies in front of the server (0-10), or true (1) or false (0)')
    .default('false')
    .transform((v) => (v === 'true' ? 1 : v === 'false' ? 0 : Number(v)))
    .pipe(z.number().int().min(0, 'must be 0 or more').max(10, 'must be at most 10 proxies')),
  /** Sign-up attempts per address and hour; raise it where many people share one address. */
  SIGNUPS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(SIGNUPS_PER_ADDRESS),
  /** Hashes a sign-up's proof of work costs on average; each doubling doubles a bot's cost per account. */
  POW_DIFFICULTY: z.coerce.number().int().min(1).max(10_000_000).default(POW_DIFFICULTY),
  /** Shortest 1:1 chat, in seconds, that counts for missions as a chat of a minute. */
  MISSION_MIN_CHAT_SECONDS: z.coerce.number().int().min(1).max(3600).default(MIN_CHAT_SECONDS),
  /** UDP ports the live streams' SFU listens on ("10000-10100"); unset: any free port. */
  RTC_PORT_RANGE: optionalString.pipe(
    z
      .string()
      .regex(/^\d+-\d+$/, 'RTC_PORT_RANGE is "first-last"')
      .optional(),
  ),
  /** The address viewers and broadcasters reach the SFU at, when the host's own is private. */
  RTC_PUBLIC_IP: optionalString.pipe(z.ipv4().optional()),
  /**
   * Link previews fetch only public addresses on the usual web ports. These `host:port` pairs
   * (comma-separated) are fetched whatever their address and port: a local stand-in for tests.
   * Leave unset in production.
   */
  LINK_PREVIEW_ALLOW: optionalString
    .pipe(
      z
        .string()
        .regex(/^[a-z0-9.[\]:-]+:\d{1,5}(,[a-z0-9.[\]:-]+:\d{1,5})*$/i, 'must be host:port pairs separated by commas')
        .transform((v) => v.split(',').map((e) => e.toLowerCase()))
        .optional(),
    )
    .transform((v) => v ?? []),
  /**
   * A LibreTranslate-compatible server (`https://translate.example`, its /translate endpoint is
   * used) for the optional Translate button on strangers' messages; unset: no button, and no text
   * ever leaves for translation.
   */
  TRANSLATE_URL: optionalString.pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional()),
  /** The translator's API key, when it asks for one (LibreTranslate's `api_key`). */
  TRANSLATE_API_KEY: optionalString,
  /** How long a translation may take before the person is told the translator is not answering. */
  TRANSLATE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8000),
  /** Live streams watched at once from one address (an IPv6 /64); raise it where many people share one address. */
  LIVE_WATCHES_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(LIVE_WATCHES_PER_ADDRESS),
});

export type Config = z.infer<typeof envSchema> & {
  /** Where Google's OAuth endpoints are; tests point these at a local OpenID provider. */
  googleEndpoints?: { authorizationURL: string; tokenURL: string; userProfileURL: string };
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg: Config = parsed.data;
  const oauthBase = cfg.GOOGLE_OAUTH_BASE;
  if (oauthBase) {
    const at = (path: string) => new URL(path, oauthBase.replace(/\/?$/, '/')).href;
    cfg.googleEndpoints = { authorizationURL: at('auth'), tokenURL: at('token'), userProfileURL: at('userinfo') };
  }
  if (Boolean(cfg.GOOGLE_CLIENT_ID) !== Boolean(cfg.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError('Invalid configuration:\n  GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together');
  }
  if (Boolean(cfg.STRIPE_SECRET_KEY) !== Boolean(cfg.STRIPE_WEBHOOK_SECRET)) {
    // Without the webhook secret nothing could ever confirm a payment that Checkout took.
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_WEBHOOK_SECRET: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together',
    );
  }
  if (Boolean(cfg.VAPID_PUBLIC_KEY) !== Boolean(cfg.VAPID_PRIVATE_KEY)) {
    throw new ConfigError('Invalid configuration:\n  VAPID_PRIVATE_KEY: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  }
  return cfg;
}

export function publicUrl(cfg: Config): string {
  return cfg.PUBLIC_URL ?? `http://localhost:${cfg.PORT}`;
}

/** The passkeys' relying party id and the origin their pages are served from. */
export function webauthnRelyingParty(cfg: Config): { rpID: string; origin: string } {
  const pub = new URL(publicUrl(cfg));
  return { rpID: cfg.WEBAUTHN_RP_ID ?? pub.hostname, origin: cfg.WEBAUTHN_ORIGIN ? new URL(cfg.WEBAUTHN_ORIGIN).origin : pub.origin };
}
