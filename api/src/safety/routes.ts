import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import {
  SAFETY_ERR,
  SNAPSHOT_MAX_BYTES,
  appealDecisionSchema,
  appealSchema,
  moderationDecisionSchema,
  reportSchema,
  supportReplySchema,
} from '@parley/contract/safety';
import { FACTOR_ERR } from '@parley/contract/factors';
import type { AppDeps, AuthState } from '../deps.ts';
import { findAccountById, type Account } from '../db/accounts.ts';
import { HttpError, parse } from '../platform/errors.ts';
import { consume } from '../platform/rateLimit.ts';
import type { ModerationDesk } from './moderation.ts';
import type { ReportDesk } from './reports.ts';

/** Reports one person may file an hour: plenty for real trouble, too few to flood the queue. */
export const REPORTS_PER_HOUR = 20;
/** Appeals check a password: limited per address like sign-in. */
const APPEALS_PER_HOUR = 5;
const idParam = z.uuid({ message: 'not an id' });
const roleSchema = z.strictObject({ username: z.string().min(1).max(100), role: z.enum(['user', 'moderator']) });

export type SafetyRouteDeps = {
  reports: ReportDesk;
  moderation: ModerationDesk;
  /** The account of a username and password (auth/), for appeals from the sign-in screen. */
  verifyCredentials(username: string, password: string): Promise<Account | undefined>;
  /** A picture or voice message a report holds as evidence (rooms/attachments.ts), or undefined. */
  evidenceFile(reportId: string, attachmentId: string): Promise<{ bytes: Buffer; mime: string } | undefined>;
};

export function safetyRoutes(deps: AppDeps, { reports, moderation, verifyCredentials, evidenceFile }: SafetyRouteDeps): Router {
  const reportsPerUser = deps.limiters.create({ keyPrefix: 'reports', points: REPORTS_PER_HOUR, durationSeconds: 3600 });
  const appealsPerAddress = deps.limiters.create({
    keyPrefix: 'appeals',
    points: APPEALS_PER_HOUR,
    durationSeconds: 3600,
    byAddress: true,
  });
  const router = new Router();

  /** Moderators and admins only; the role is read from the database on every call, never from a token. */
  const requireRole =
    (...roles: Array<'moderator' | 'admin'>) =>
    async (ctx: Context, next: Next) => {
      const { user } = ctx.state as AuthState;
      const account = await findAccountById(deps.db, user.userId);
      if (!account || !(roles as string[]).includes(account.role)) throw new HttpError(403, SAFETY_ERR.notModerator, 'forbidden');
      // A moderator's stolen password must not open other people's reports: two-factor first.
      if (!account.twoFactorAt) throw new HttpError(403, FACTOR_ERR.twoFactorRequired, 'two_factor_required');
      await next();
    };
  const moderator = requireRole('moderator', 'admin');

  router.post('/reports', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const body = parse(reportSchema, ctx.request.body);
    const wait = await consume(reportsPerUser, user.userId);
    if (wait > 0) throw new HttpError(429, SAFETY_ERR.tooManyReports, 'rate_limited', { 'Retry-After': String(wait) });
    ctx.status = 201;
    ctx.body = await reports.file(user.userId, body);
  });

  // The snapshot is binary (a JPEG), sent right after the report it belongs to.
  router.put('/reports/:id/snapshot', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const id = parse(idParam, ctx.params.id);
    if (!ctx.is('image/jpeg')) throw new HttpError(415, SAFETY_ERR.snapshotNotJpeg, 'unsupported_media_type');
    await reports.attachSnapshot(user.userId, id, await readBody(ctx, SNAPSHOT_MAX_BYTES));
    ctx.status = 204;
  });

  router.get('/safety/warnings', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    ctx.body = await moderation.warningsFor(user.userId);
  });

  router.post('/safety/warnings/:id/seen', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    if (!(await moderation.warningSeen(user.userId, parse(idParam, ctx.params.id))))
      throw new HttpError(404, 'No such warning.', 'not_found');
    ctx.status = 204;
  });

  // From the sign-in screen: a suspended account has no session, so it proves itself with its password.
  router.post('/safety/appeals', async (ctx) => {
    const body = parse(appealSchema, ctx.request.body);
    const wait = await consume(appealsPerAddress, ctx.ip);
    if (wait > 0)
      throw new HttpError(429, 'Too many appeals from this network. Try again later.', 'rate_limited', { 'Retry-After': String(wait) });
    const account = await verifyCredentials(body.username, body.password);
    if (!account) throw new HttpError(401, 'Unauthorized', 'unauthorized');
    await moderation.appeal(account, body.text);
    ctx.status = 201;
    ctx.body = { ok: true };
  });

  router.get('/moderation/queue', deps.requireUser, moderator, async (ctx) => {
    ctx.body = await moderation.queue();
  });
  router.get('/moderation/users/:id', deps.requireUser, moderator, async (ctx) => {
    ctx.body = await moderation.caseOf(parse(idParam, ctx.params.id));
  });
  router.get('/moderation/reports/:id/snapshot', deps.requireUser, moderator, async (ctx) => {
    const jpeg = await moderation.snapshot(parse(idParam, ctx.params.id));
    if (!jpeg) throw new HttpError(404, 'No snapshot (or it was deleted after 90 days).', 'not_found');
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'image/jpeg';
    ctx.body = jpeg;
  });
  router.get('/moderation/reports/:id/attachments/:attachmentId', deps.requireUser, moderator, async (ctx) => {
    const file = await evidenceFile(parse(idParam, ctx.params.id), parse(idParam, ctx.params.attachmentId));
    if (!file) throw new HttpError(404, 'No such evidence (or it was deleted after 90 days).', 'not_found');
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.type = file.mime;
    ctx.body = file.bytes;
  });
  router.post('/moderation/decisions', deps.requireUser, moderator, async (ctx) => {
    const { user } = ctx.state as AuthState;
    ctx.status = 201;
    ctx.body = await moderation.decide(user.userId, parse(moderationDecisionSchema, ctx.request.body));
  });
  router.get('/moderation/appeals', deps.requireUser, moderator, async (ctx) => {
    ctx.body = await moderation.openAppeals();
  });
  router.post('/moderation/appeals/:id', deps.requireUser, moderator, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { grant, note } = parse(appealDecisionSchema, ctx.request.body);
    await moderation.decideAppeal(user.userId, parse(idParam, ctx.params.id), grant, note);
    ctx.status = 204;
  });
  router.get('/moderation/support', deps.requireUser, moderator, async (ctx) => {
    ctx.body = await moderation.supportQueue();
  });
  router.post('/moderation/support/:id/handled', deps.requireUser, moderator, async (ctx) => {
    if (!(await moderation.supportHandled(parse(idParam, ctx.params.id)))) throw new HttpError(404, 'No such open request.', 'not_found');
    ctx.status = 204;
  });
  router.post('/moderation/support/:id/reply', deps.requireUser, moderator, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { text } = parse(supportReplySchema, ctx.request.body);
    await moderation.supportReply(user.userId, parse(idParam, ctx.params.id), text);
    ctx.status = 204;
  });
  router.post('/moderation/roles', deps.requireUser, requireRole('admin'), async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { username, role } = parse(roleSchema, ctx.request.body);
    await moderation.setRole(user.userId, username, role);
    ctx.status = 204;
  });
  return router;
}

async function readBody(ctx: Context, limit: number): Promise<Buffer> {
  if (Number(ctx.get('content-length') || 0) > limit) throw new HttpError(413, SAFETY_ERR.snapshotTooLarge, 'payload_too_large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, SAFETY_ERR.snapshotTooLarge, 'payload_too_large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
