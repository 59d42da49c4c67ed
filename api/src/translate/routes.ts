import Router from '@koa/router';
import { eq } from 'drizzle-orm';
import { TRANSLATE_ERR, TRANSLATIONS_PER_MINUTE, translateRequestSchema, type TranslateAnswer } from '@parley/contract/translate';
import type { AppDeps, AuthState } from '../deps.ts';
import { users } from '../db/schema.ts';
import { HttpError, parse } from '../platform/errors.ts';
import { accountLocale, localeFromHeader } from '../platform/i18n/i18n.ts';
import { libreTranslate, TranslatorUnavailable, type Translator } from './translator.ts';

/**
 * POST /api/translate: one message a person asked to read in their language, sent to the
 * operator's translator and nowhere else. Signed in only, limited per person, and off (404)
 * unless TRANSLATE_URL is set. Nothing is stored: not the text, not the translation.
 */
export function translateRoutes(deps: AppDeps, translator?: Translator): Router {
  const router = new Router();
  const { cfg } = deps;
  const using =
    translator ??
    (cfg.TRANSLATE_URL
      ? libreTranslate({ url: cfg.TRANSLATE_URL, apiKey: cfg.TRANSLATE_API_KEY, timeoutMs: cfg.TRANSLATE_TIMEOUT_MS })
      : null);
  const perUser = deps.limiters.create({ keyPrefix: 'translate', points: TRANSLATIONS_PER_MINUTE, durationSeconds: 60 });

  router.post('/translate', deps.requireUser, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (!using) throw new HttpError(404, TRANSLATE_ERR.off, 'translation_off');
    const { user } = ctx.state as AuthState;
    const body = parse(translateRequestSchema, ctx.request.body);
    const take = await perUser.take(user.userId);
    if (!take.ok) throw new HttpError(429, TRANSLATE_ERR.tooMany, 'rate_limited', { 'Retry-After': String(take.retryAfterS) });
    const [row] = await deps.db.select({ settings: users.settings }).from(users).where(eq(users.id, user.userId)).limit(1);
    const target = body.target ?? accountLocale(row?.settings) ?? localeFromHeader(ctx.get('Accept-Language')) ?? 'en';
    try {
      const done = await using.translate(body.text, target);
      const answer: TranslateAnswer = { ...done, target };
      ctx.body = answer;
    } catch (err) {
      if (!(err instanceof TranslatorUnavailable)) throw err;
      deps.log.warn({ err: err.message }, 'translation failed');
      throw new HttpError(503, TRANSLATE_ERR.unavailable, 'translator_unavailable', { 'Retry-After': '30' });
    }
  });
  return router;
}
