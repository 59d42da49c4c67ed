import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { CHAT_PICTURES_GRACE_MS, type MessageAttachment } from '@parley/contract/attachments';
import type { Db } from '../db/client.ts';
import { attachmentView } from './attachments.ts';
import type { StoredFile } from './attachments.ts';

type Row = Record<string, unknown>;
const rowsOf = (r: unknown) => (r as { rows: Row[] }).rows;

/**
 * Pictures of a chat whose end this process never saw (it died meanwhile) go once this old: no
 * chat with a stranger lasts a day.
 */
const ORPHAN_AFTER_MS = 24 * 60 * 60 * 1000;

const view = (roomId: string, row: Row): MessageAttachment =>
  attachmentView(roomId, { id: row.id as string, kind: 'image', width: row.width as number, height: row.height as number });

/**
 * Pictures of 1:1 chats with strangers (chat_pictures), in PostgreSQL so every replica serves them.
 * Who may upload, post or fetch is the room core's check (both members allow pictures, the caller
 * is one of them); this keeps the bytes only while the chat lasts and a short grace after, or as a
 * report's evidence. A table of their own: a stored room's attachment id never names a chat's
 * picture, nor the other way round.
 */
/** `graceMs`: how long a chat's pictures outlive it, so that a report filed just after the chat can still keep them. */
export function chatPictureStore(db: Db, opts: { graceMs?: number } = {}) {
  const graceMs = opts.graceMs ?? CHAT_PICTURES_GRACE_MS;
  // One timer for every chat that ended: it sweeps once the latest grace it knows of is over.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest = 0;
  const sweepBy = (at: number) => {
    latest = Math.max(latest, at);
    if (timer) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        // Failing here leaves them to the hourly sweep.
        void store.sweep().then(
          () => latest > Date.now() && sweepBy(latest),
          () => undefined,
        );
      },
      Math.max(0, latest - Date.now()) + 1000,
    );
    timer.unref();
  };
  const store = {
    /**
     * A picture whose thumbnail is made; its full picture follows (`complete`). `size` is what it
     * counts against the uploader's cap until then.
     */
    async save(
      roomId: string,
      uploaderId: string,
      p: { thumb: Buffer; width: number; height: number; size: number },
    ): Promise<MessageAttachment> {
      const id = randomUUID();
      await db.execute(sql`insert into chat_pictures (id, room_id, uploader_id, bytes, thumb, size, width, height)
        values (${id}, ${roomId}, ${uploaderId}, null, ${p.thumb}, ${p.size}, ${p.width}, ${p.height})`);
      return view(roomId, { id, width: p.width, height: p.height });
    },

    /** The full picture is encoded: it is served from now on, and counts at its own size. */
    async complete(id: string, bytes: Buffer) {
      await db.execute(
        sql`update chat_pictures set bytes = ${bytes}, size = ${bytes.length} + length(thumb) where id = ${id} and bytes is null`,
      );
    },

    /** The bytes this person's chat pictures take now (counted with their stored attachments against one cap). */
    async usage(uploaderId: string): Promise<number> {
      const [row] = rowsOf(
        await db.execute(sql`select coalesce(sum(size), 0)::float8 as used from chat_pictures where uploader_id = ${uploaderId}`),
      );
      return Number(row?.used ?? 0);
    },

    /**
     * Gives the upload to one message: the uploader's, in this chat, not given to another message
     * (the same client id again is a resend of that message), its chat not over. Null otherwise.
     */
    async claim(id: string, roomId: string, uploaderId: string, clientId: string): Promise<MessageAttachment | null> {
      const [row] = rowsOf(
        await db.execute(sql`update chat_pictures set client_id = ${clientId}
          where id = ${id} and room_id = ${roomId} and uploader_id = ${uploaderId} and delete_after is null
            and (client_id is null or client_id = ${clientId})
          returning id, width, height`),
      );
      return row ? view(roomId, row) : null;
    },

    /**
     * The file a member of the chat asks for (the caller checked they are one): a picture of this
     * chat that was sent, or the uploader's own before it is. Undefined otherwise.
     */
    async readable(
      roomId: string,
      id: string,
      userId: string,
      variant: 'full' | 'thumb' | 'audio',
    ): Promise<StoredFile | 'preparing' | undefined> {
      if (variant === 'audio') return undefined;
      const [row] = rowsOf(
        await db.execute(sql`select ${variant === 'thumb' ? sql`thumb` : sql`bytes`} as bytes from chat_pictures
          where id = ${id} and room_id = ${roomId} and delete_after is null and (client_id is not null or uploader_id = ${userId})`),
      );
      if (!row) return undefined;
      if (!row.bytes) return 'preparing';
      return { bytes: Buffer.from(row.bytes as Uint8Array), mime: 'image/webp' };
    },

    /** Its message was deleted: the picture goes now, unless a report keeps it. */
    async forget(roomId: string, id: string) {
      await db.execute(sql`delete from chat_pictures where id = ${id} and room_id = ${roomId}
        and (evidence_until is null or evidence_until < now())`);
    },

    /**
     * The chat ended: nobody fetches its pictures any more, and they go after the grace (`sweep`),
     * unless a report keeps them meanwhile.
     */
    async ended(roomId: string, now = Date.now()) {
      const marked = rowsOf(
        await db.execute(sql`update chat_pictures set delete_after = ${new Date(now + graceMs)}
          where room_id = ${roomId} and delete_after is null returning id`),
      );
      if (marked.length > 0) sweepBy(now + graceMs);
    },

    /** A report holds these pictures of the chat as evidence until `until`. */
    async keepAsEvidence(roomId: string, ids: string[], until: Date) {
      if (ids.length === 0) return;
      await db.execute(sql`update chat_pictures set evidence_until = greatest(coalesce(evidence_until, ${until}), ${until})
        where room_id = ${roomId} and id = any(${`{${ids.join(',')}}`}::uuid[])`);
    },

    /** A moderator's look at evidence: the picture, while a report keeps it. */
    async evidence(id: string): Promise<{ bytes: Buffer; mime: string } | undefined> {
      const [row] = rowsOf(
        await db.execute(sql`select coalesce(bytes, thumb) as bytes from chat_pictures where id = ${id} and evidence_until > now()`),
      );
      return row ? { bytes: Buffer.from(row.bytes as Uint8Array), mime: 'image/webp' } : undefined;
    },

    /**
     * Deletes what nothing keeps any more: pictures of chats past their grace, those of chats whose
     * end was never seen, and evidence past its time. Run after each grace and hourly.
     */
    async sweep(now = Date.now()): Promise<number> {
      const rows = rowsOf(
        await db.execute(sql`delete from chat_pictures
          where (evidence_until is null or evidence_until < ${new Date(now)})
            and (delete_after <= ${new Date(now)} or created_at < ${new Date(now - ORPHAN_AFTER_MS)})
          returning id`),
      );
      return rows.length;
    },

    close() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
  return store;
}
export type ChatPictureStore = ReturnType<typeof chatPictureStore>;
