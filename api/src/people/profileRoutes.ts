import Router from '@koa/router';
import { eq } from 'drizzle-orm';
import {
  backgroundChoiceSchema,
  profileUpdateSchema,
  SHIPPED_BACKGROUNDS,
  shippedBackgroundUrl,
  usernameParamSchema,
  type BackgroundGallery,
} from '@parley/contract/people';
import { verifyInfoSchema, type AccessTokenAnswer } from '@parley/contract/auth';
import type { AppDeps, AuthState } from '../deps.ts';
import { users } from '../db/schema.ts';
import { HttpError, parse } from '../platform/errors.ts';
import { consume } from '../platform/rateLimit.ts';
import { ageGate } from './ageGate.ts';
import { avatarUrl, avatarVariants, backgroundVariant, type ImageStore } from './images.ts';
import { liveAccount, type Profiles } from './profiles.ts';
import { readImageUpload } from './upload.ts';
import { countryOfAddress } from '../platform/geo.ts';

/** Uploaded backgrounds a user keeps; older ones go when a new one arrives. */
export const BACKGROUND_UPLOADS_KEPT = 5;
const IMAGE_FILE = /^([0-9a-f-]{36})-(256|64|bg)\.webp$/;

/**
 * Others' profiles a person opens in an hour, from one account and from one address (a household
 * or an office shares one): far above browsing the online list and the people one chats with,
 * far below listing who has an account.
 */
export const PROFILE_LOOKUPS_PER_HOUR = 200;
export const PROFILE_LOOKUPS_PER_ADDRESS_HOUR = 600;
/** Names that turn out not to exist (or to hide from the viewer), per account and per address an hour: a few typos, not a list of guesses. */
export const PROFILE_MISSES_PER_HOUR = 30;
const PROFILES_OPENED_TOO_FAST = 'Too many profiles opened. Wait a while and try again.';

/** /api/profile (own), /api/user/verify-info (the age gate), /api/users/:username (others'), /api/images, /api/backgrounds. */
export function profileRoutes(deps: AppDeps, profiles: Profiles, images: ImageStore): Router {
  const router = new Router();
  const ages = ageGate(deps);
  const uploads = deps.limiters.create({ keyPrefix: 'image-upload', points: 30, durationSeconds: 3600 });
  const profileLookups = deps.limiters.create({ keyPrefix: 'profile-open', points: PROFILE_LOOKUPS_PER_HOUR, durationSeconds: 3600 });
  const profileLookupsByAddress = deps.limiters.create({
    keyPrefix: 'profile-open-addr',
    points: PROFILE_LOOKUPS_PER_ADDRESS_HOUR,
    durationSeconds: 3600,
    byAddress: true,
  });
  const profileMisses = deps.limiters.create({ keyPrefix: 'profile-miss', points: PROFILE_MISSES_PER_HOUR, durationSeconds: 3600 });
  const profileMissesByAddress = deps.limiters.create({
    keyPrefix: 'profile-miss-addr',
    points: PROFILE_MISSES_PER_HOUR,
    durationSeconds: 3600,
    byAddress: true,
  });
  const limit = async (limiter: typeof uploads, key: string, message: string) => {
    const wait = await consume(limiter, key);
    if (wait) throw new HttpError(429, message, 'rate_limited', { 'Retry-After': String(wait) });
  };

  // The owner also hears the country of the address they connect from (the default when they chose none).
  router.get('/profile', deps.requireUser, async (ctx) => {
    ctx.body = { ...(await profiles.own((ctx.state as AuthState).user.userId)), detectedCountry: countryOfAddress(ctx.ip) };
  });

  router.patch('/profile', deps.requireUser, async (ctx) => {
    const own = await profiles.update((ctx.state as AuthState).user.userId, parse(profileUpdateSchema, ctx.request.body));
    ctx.body = { ...own, detectedCountry: countryOfAddress(ctx.ip) };
  });

  router.put('/profile/avatar', deps.requireUser, async (ctx) => {
    const { userId } = (ctx.state as AuthState).user;
    await limit(uploads, userId, 'Too many uploads. Try again later.');
    const variants = await avatarVariants(await readImageUpload(ctx));
    await liveAccount(deps.db, userId);
    const id = await images.saveAvatar(userId, variants);
    await deps.db
      .update(users)
      .set({ avatar: avatarUrl(id) })
      .where(eq(users.id, userId));
    ctx.body = await profiles.own(userId);
  });

  router.delete('/profile/avatar', deps.requireUser, async (ctx) => {
    const { userId } = (ctx.state as AuthState).user;
    await deps.db.update(users).set({ avatar: '' }).where(eq(users.id, userId));
    ctx.body = await profiles.own(userId);
  });

  router.put('/profile/background', deps.requireUser, async (ctx) => {
    const { userId } = (ctx.state as AuthState).user;
    const { background } = parse(backgroundChoiceSchema, ctx.request.body);
    if (background?.startsWith('upload:') && !(await images.backgroundsOf(userId)).includes(background.slice(7)))
      throw new HttpError(404, 'That background is not one of your uploads.', 'not_found');
    await deps.db.update(users).set({ background }).where(eq(users.id, userId));
    ctx.body = await profiles.own(userId);
  });

  // Age and gender after a Google sign-in (the confirm-account page), answered with a token that says so.
  router.post('/user/verify-info', deps.requireUser, async (ctx) => {
    const { user, sid } = ctx.state as AuthState;
    const body: AccessTokenAnswer = {
      accessToken: await ages.verifyInfo(user.userId, parse(verifyInfoSchema, ctx.request.body), sid, ctx.ip),
    };
    ctx.body = body;
  });

  // Limited per account and per address; a name that does not answer costs a miss too, taken
  // before the look-up (parallel guesses cannot slip past) and given back when the profile exists.
  router.get('/users/:username', deps.requireUser, async (ctx) => {
    const { userId } = (ctx.state as AuthState).user;
    const username = parse(usernameParamSchema, ctx.params.username);
    for (const [limiter, key] of [
      [profileLookups, userId],
      [profileLookupsByAddress, ctx.ip],
      [profileMisses, userId],
      [profileMissesByAddress, ctx.ip],
    ] as const)
      await limit(limiter, key, PROFILES_OPENED_TOO_FAST);
    const card = await profiles.card(userId, username);
    await Promise.all([profileMisses.refund(userId), profileMissesByAddress.refund(ctx.ip)]);
    ctx.body = card;
  });

  // Image ids are random and only ever handed out in profiles: serving them needs no sign-in.
  router.get('/images/:file', async (ctx) => {
    const m = IMAGE_FILE.exec(ctx.params.file ?? '');
    const bytes = m ? await images.read(m[1]!, m[2] as '256' | '64' | 'bg') : undefined;
    if (!bytes) throw new HttpError(404, 'No such image.', 'not_found');
    ctx.type = 'image/webp';
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = bytes;
  });

  // Public to browse; a signed-in visitor also sees their uploads and choice.
  router.get('/backgrounds', async (ctx) => {
    const user = await deps.optionalUser(ctx.get('authorization'));
    const gallery: BackgroundGallery = {
      shipped: SHIPPED_BACKGROUNDS.map((b) => ({ ...b, url: shippedBackgroundUrl(b.id) })),
      uploads: [],
      current: null,
    };
    if (user) {
      const account = await liveAccount(deps.db, user.userId).catch(() => undefined);
      if (account) {
        gallery.uploads = (await images.backgroundsOf(user.userId)).map((id) => ({ id: `upload:${id}`, url: `/api/images/${id}-bg.webp` }));
        gallery.current = account.background;
      }
    }
    ctx.body = gallery;
  });

  router.post('/backgrounds', deps.requireUser, async (ctx) => {
    const { userId } = (ctx.state as AuthState).user;
    await limit(uploads, userId, 'Too many uploads. Try again later.');
    const bytes = await backgroundVariant(await readImageUpload(ctx));
    const id = await images.saveBackground(userId, bytes, BACKGROUND_UPLOADS_KEPT);
    ctx.status = 201;
    ctx.body = { id: `upload:${id}`, url: `/api/images/${id}-bg.webp` };
  });

  return router;
}
