import Router from '@koa/router';
import { findLinks, linkImageQuerySchema, linkPreviewQuerySchema, type LinkPreviewAnswer } from '@parley/contract/links';
import type { AppDeps, AuthState } from '../deps.ts';
import { DomainError, parse } from '../platform/errors.ts';
import { takeOrRefuse, type Limiter } from '../platform/rateLimit.ts';
import type { RoomCore } from '../rooms/core.ts';
import type { LinkPreviews } from './previews.ts';

/** The kinds whose links are previewed: conversations among friends and rooms people chose. Never a 1:1 chat with a stranger. */
const PREVIEWED = new Set(['group', 'direct']);

/** /api/links: a message's link preview (for those who may read the message) and the previews' images. */
export function linkRoutes(
  deps: AppDeps,
  rooms: () => RoomCore,
  previews: LinkPreviews,
  limits: { previews: Limiter; images: Limiter },
): Router {
  const router = new Router({ prefix: '/links' });
  router.get('/preview', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { roomId, messageId } = parse(linkPreviewQuerySchema, ctx.query);
    await takeOrRefuse(limits.previews, user.userId, 'Too many link previews at once. Wait a moment and try again.');
    const access = await rooms().readable(roomId, user.userId);
    let body: LinkPreviewAnswer = { preview: null };
    if (PREVIEWED.has(access.room.kind)) {
      const message = await rooms().logOf(roomId).one(roomId, messageId);
      const link = message && !message.deleted ? findLinks(message.text)[0] : undefined;
      if (link) body = { preview: await previews.preview(link.url) };
    }
    ctx.set('Cache-Control', 'private, max-age=600');
    ctx.body = body;
  });
  // No sign-in: an <img> sends no token. Only addresses this server signed are served.
  router.get('/image', async (ctx) => {
    const { u, s } = parse(linkImageQuerySchema, ctx.query);
    await takeOrRefuse(limits.images, ctx.request.ip, 'Too many images at once. Wait a moment and try again.');
    const image = await previews.image(u, s);
    if (!image) throw new DomainError('not_found', 'This image is not available.', 'no_image');
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('Content-Security-Policy', "default-src 'none'");
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'image/webp';
    ctx.body = image;
  });
  return router;
}
