import type Router from '@koa/router';
import {
  ATTACHMENT_ERR,
  ATTACHMENT_STORAGE_CAP_BYTES,
  ATTACHMENTS_PER_ROOM_MINUTE,
  ATTACHMENTS_PER_USER_MINUTE,
  attachmentIdSchema,
  attachmentVariantSchema,
  PICTURE_MAX_BYTES,
  PICTURE_TYPES,
  uploadQuerySchema,
  VOICE_MAX_BYTES,
  VOICE_TYPES,
  type AttachmentKind,
  type MessageAttachment,
} from '@parley/contract/attachments';
import { roomIdSchema } from '@parley/contract/rooms';
import type { AppDeps, AuthState } from '../deps.ts';
import { HttpError, parse } from '../platform/errors.ts';
import { takeOrRefuse } from '../platform/rateLimit.ts';
import { readUpload } from '../platform/upload.ts';
import type { RoomCore } from './core.ts';
import { Refusal } from '../realtime/refusals.ts';
import { attachmentChecks, type RoomsElsewhere } from './storedSocket.ts';
import { preparePicture, type PreparedPicture } from './pictures.ts';
import { checkVoice } from './voice.ts';

/** How long a fetch of a full picture waits for its encoding, and how often it looks when another process encodes it. */
const PREPARING_WAIT_MS = 20_000;
const PREPARING_POLL_MS = 150;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a check forwarded for an HTTP request names as its socket: none (the holder checks the person). */
const HTTP_CALLER = 'http';

/**
 * Pictures and voice messages of stored rooms, and pictures of 1:1 chats whose members both allow
 * them: uploaded by a member who may send one there now, then posted as a message (room:post with
 * `attachment`); each file served to the room's members only.
 */
export function attachmentRoutes(router: Router, deps: AppDeps, rooms: () => RoomCore, chatsElsewhere?: RoomsElsewhere) {
  /**
   * Runs a check of a 1:1 chat another process holds (scaled out) there, where its members and their
   * consent are; its refusal answered with the status it would have here. False: the chat is not
   * held elsewhere, the caller checks here.
   */
  const checkedWhereHeld = async (roomId: string, user: AuthState['user'], event: string, payload: object): Promise<boolean> => {
    if (!chatsElsewhere?.holds(roomId)) return false;
    try {
      await chatsElsewhere.run(roomId, event, HTTP_CALLER, user, { roomId, ...payload });
    } catch (err) {
      if (err instanceof Refusal)
        throw new HttpError(err.code === 'timeout' || err.code === 'unavailable' ? 503 : 403, err.message, err.code);
      throw err;
    }
    return true;
  };
  /** Full pictures being encoded in this process, by attachment id: a fetch of one waits for it. */
  const encoding = new Map<string, Promise<void>>();
  /** Stores the full picture once it is encoded; should that fail, the thumbnail stands in for it. */
  const completeLater = (id: string, picture: PreparedPicture, complete: (id: string, bytes: Buffer) => Promise<void>) => {
    const done = picture.full
      .catch((err: unknown) => {
        deps.log.warn({ err }, 'a full picture could not be encoded: its thumbnail stands in');
        return picture.thumb;
      })
      .then((bytes) => complete(id, bytes))
      .catch((err: unknown) => deps.log.error({ err }, 'a full picture could not be stored'))
      .finally(() => encoding.delete(id));
    encoding.set(id, done);
  };
  const uploadable = async (core: RoomCore, roomId: string, user: AuthState['user'], kind: AttachmentKind) => {
    if (!(await checkedWhereHeld(roomId, user, attachmentChecks.upload, { kind }))) await core.uploadable(roomId, user.userId, kind);
  };

  const perUser = deps.limiters.create({ keyPrefix: 'attach-user', points: ATTACHMENTS_PER_USER_MINUTE, durationSeconds: 60 });
  const perRoom = deps.limiters.create({ keyPrefix: 'attach-room', points: ATTACHMENTS_PER_ROOM_MINUTE, durationSeconds: 60 });

  router.post('/:roomId/attachments', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const roomId = parse(roomIdSchema, ctx.params.roomId);
    const { kind } = parse(uploadQuerySchema, ctx.query);
    const core = rooms();
    // Everything cheap is refused before the body is read.
    await uploadable(core, roomId, user, kind);
    const chat = core.policyOf(roomId) !== undefined || chatsElsewhere?.holds(roomId) === true;
    await takeOrRefuse(perUser, user.userId, ATTACHMENT_ERR.tooFast);
    await takeOrRefuse(perRoom, roomId, ATTACHMENT_ERR.roomTooFast);
    // One cap over both: a chat's pictures count while they are kept.
    const used = (await core.attachments.usage(user.userId)) + (await core.chatPictures.usage(user.userId));
    const declared = Number(ctx.get('content-length') || 0);
    const full = () => new HttpError(413, ATTACHMENT_ERR.storageFull, 'storage_full');
    if (used + declared > ATTACHMENT_STORAGE_CAP_BYTES) throw full();

    let saved: MessageAttachment;
    if (kind === 'image') {
      const file = await readUpload(ctx, {
        types: PICTURE_TYPES,
        maxBytes: PICTURE_MAX_BYTES,
        wrongType: ATTACHMENT_ERR.notAPicture,
        tooLarge: ATTACHMENT_ERR.pictureTooLarge,
        tooLargeStatus: 413,
      });
      const picture = await preparePicture(file);
      // Until its full picture is encoded, it counts at the upload's size (more than it will keep).
      const size = file.length + picture.thumb.length;
      if (used + size > ATTACHMENT_STORAGE_CAP_BYTES) throw full();
      // The chat may have ended, or either side stopped allowing pictures, while the picture was read.
      if (chat) {
        await uploadable(core, roomId, user, kind);
        saved = await core.chatPictures.save(roomId, user.userId, { ...picture, size });
        completeLater(saved.id, picture, core.chatPictures.complete);
      } else {
        saved = await core.attachments.save({
          roomId,
          uploaderId: user.userId,
          kind,
          mime: 'image/webp',
          bytes: null,
          size,
          thumb: picture.thumb,
          width: picture.width,
          height: picture.height,
        });
        completeLater(saved.id, picture, core.attachments.complete);
      }
    } else {
      const file = await readUpload(ctx, {
        types: VOICE_TYPES,
        maxBytes: VOICE_MAX_BYTES,
        wrongType: ATTACHMENT_ERR.notVoice,
        tooLarge: ATTACHMENT_ERR.voiceTooLarge,
        tooLargeStatus: 413,
      });
      const voice = checkVoice(file);
      if (used + file.length > ATTACHMENT_STORAGE_CAP_BYTES) throw full();
      saved = await core.attachments.save({
        roomId,
        uploaderId: user.userId,
        kind,
        mime: voice.mime,
        bytes: file,
        durationMs: voice.durationMs,
      });
    }
    ctx.status = 201;
    ctx.body = saved;
  });

  router.get('/:roomId/attachments/:id/:variant', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const roomId = parse(roomIdSchema, ctx.params.roomId);
    const id = parse(attachmentIdSchema, ctx.params.id);
    const variant = parse(attachmentVariantSchema, ctx.params.variant);
    const core = rooms();
    // Members only (a 403 for anyone else); then the file must be this room's, and its message still there.
    const elsewhere = await checkedWhereHeld(roomId, user, attachmentChecks.read, {});
    if (!elsewhere) await core.readable(roomId, user.userId);
    const store = elsewhere ? core.chatPictures : core.picturesOf(roomId);
    let file = await store.readable(roomId, id, user.userId, variant);
    // Its full picture is still being encoded (here, or by the process the upload went to).
    for (const until = Date.now() + PREPARING_WAIT_MS; file === 'preparing' && Date.now() < until;) {
      await (encoding.get(id) ?? sleep(PREPARING_POLL_MS));
      file = await store.readable(roomId, id, user.userId, variant);
    }
    if (!file || file === 'preparing') throw new HttpError(404, ATTACHMENT_ERR.gone, 'not_found');
    ctx.type = file.mime;
    // Deleting the message takes it away for everyone: nothing keeps a copy on the way.
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Content-Disposition', 'inline');
    ctx.body = file.bytes;
  });
}
