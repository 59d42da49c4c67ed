import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { attachmentUrl, type AttachmentKind, type MessageAttachment } from '@parley/contract/attachments';
import type { Db } from '../db/client.ts';

type Row = Record<string, unknown>;
const rowsOf = (r: unknown) => (r as { rows: Row[] }).rows;

/** A file as it is served. */
export type StoredFile = { bytes: Buffer; mime: string };

/** An upload never sent in a message is dropped after this long. */
const UNSENT_KEPT_MS = 24 * 60 * 60 * 1000;

export type NewAttachment = {
  roomId: string;
  uploaderId: string;
  kind: AttachmentKind;
  mime: string;
  /** Null while the full picture is still being encoded (`complete` stores it). */
  bytes: Buffer | null;
  /** What it counts against the uploader's cap; the bytes' own size once they are all there. */
  size?: number | undefined;
  thumb?: Buffer | undefined;
  width?: number | undefined;
  height?: number | undefined;
  durationMs?: number | undefined;
};

/** An attachment as its message carries it, from its stored fields. */
export function attachmentView(
  roomId: string,
  a: { id: string; kind: AttachmentKind; width?: number | null; height?: number | null; durationMs?: number | null },
): MessageAttachment {
  if (a.kind === 'voice') return { id: a.id, kind: 'voice', durationMs: a.durationMs ?? 0, url: attachmentUrl(roomId, a.id, 'audio') };
  return {
    id: a.id,
    kind: 'image',
    width: a.width ?? 0,
    height: a.height ?? 0,
    url: attachmentUrl(roomId, a.id, 'full'),
    thumbUrl: attachmentUrl(roomId, a.id, 'thumb'),
  };
}

/**
 * Stored rooms' pictures and voice messages (room_attachments), in PostgreSQL so every replica
 * serves them. Who may upload, post or fetch is the room core's check; this keeps the bytes.
 */
export function attachmentStore(db: Db) {
  return {
    async save(a: NewAttachment): Promise<MessageAttachment> {
      const id = randomUUID();
      const size = a.size ?? (a.bytes?.length ?? 0) + (a.thumb?.length ?? 0);
      await db.execute(sql`insert into room_attachments (id, room_id, uploader_id, kind, mime, bytes, thumb, size, width, height, duration_ms)
        values (${id}, ${a.roomId}, ${a.uploaderId}, ${a.kind}, ${a.mime}, ${a.bytes}, ${a.thumb ?? null}, ${size},
          ${a.width ?? null}, ${a.height ?? null}, ${a.durationMs ?? null})`);
      return attachmentView(a.roomId, { id, ...a });
    },

    /** The full picture is encoded: it is served from now on, and counts at its own size. */
    async complete(id: string, bytes: Buffer) {
      await db.execute(sql`update room_attachments set bytes = ${bytes}, size = ${bytes.length} + coalesce(length(thumb), 0)
        where id = ${id} and bytes is null`);
    },

    /** The bytes this person's attachments take now; uploads of theirs left unsent for a day are dropped first. */
    async usage(uploaderId: string): Promise<number> {
      await db.execute(sql`delete from room_attachments where uploader_id = ${uploaderId} and client_id is null
        and created_at < ${new Date(Date.now() - UNSENT_KEPT_MS)}`);
      const [row] = rowsOf(
        await db.execute(sql`select coalesce(sum(size), 0)::float8 as used from room_attachments where uploader_id = ${uploaderId}`),
      );
      return Number(row?.used ?? 0);
    },

    /**
     * Gives the upload to one message: the uploader's, in this room, not given to another message
     * (the same client id again is a resend of that message). Null when it may not be sent.
     */
    async claim(id: string, roomId: string, uploaderId: string, clientId: string): Promise<MessageAttachment | null> {
      const [row] = rowsOf(
        await db.execute(sql`update room_attachments set client_id = ${clientId}
          where id = ${id} and room_id = ${roomId} and uploader_id = ${uploaderId} and (client_id is null or client_id = ${clientId})
          returning id, kind, width, height, duration_ms`),
      );
      return row
        ? attachmentView(roomId, {
            id: row.id as string,
            kind: row.kind as AttachmentKind,
            width: row.width as number | null,
            height: row.height as number | null,
            durationMs: row.duration_ms as number | null,
          })
        : null;
    },

    /**
     * The file a member asks for: an attachment of this room whose message is there (not deleted),
     * or the uploader's own upload before it is sent. Undefined otherwise.
     */
    async readable(
      roomId: string,
      id: string,
      userId: string,
      variant: 'full' | 'thumb' | 'audio',
    ): Promise<StoredFile | 'preparing' | undefined> {
      const [row] = rowsOf(
        await db.execute(sql`select a.kind, a.mime, ${variant === 'thumb' ? sql`a.thumb` : sql`a.bytes`} as bytes
          from room_attachments a
          where a.id = ${id} and a.room_id = ${roomId} and (
            a.uploader_id = ${userId} and a.client_id is null
            or exists (select 1 from room_messages m where m.room_id = a.room_id and m.attachment_id = a.id and m.deleted_at is null))`),
      );
      if (!row || (row.kind === 'voice') !== (variant === 'audio')) return undefined;
      if (!row.bytes) return variant === 'full' ? 'preparing' : undefined;
      return { bytes: Buffer.from(row.bytes as Uint8Array), mime: variant === 'audio' ? (row.mime as string) : 'image/webp' };
    },

    /** The message was deleted: its attachment goes for everyone, unless a report keeps it as evidence. */
    async forgetOf(roomId: string, messageId: number) {
      await db.execute(sql`delete from room_attachments a using room_messages m
        where m.room_id = ${roomId} and m.id = ${messageId} and a.id = m.attachment_id
          and (a.evidence_until is null or a.evidence_until < now())`);
    },

    /** A report holds these attachments as evidence until `until`; a deletion meanwhile leaves them for moderators. */
    async keepAsEvidence(roomId: string, ids: string[], until: Date) {
      if (ids.length === 0) return;
      await db.execute(sql`update room_attachments set evidence_until = greatest(coalesce(evidence_until, ${until}), ${until})
        where room_id = ${roomId} and id = any(${`{${ids.join(',')}}`}::uuid[])`);
    },

    /** A moderator's look at evidence: the file, whatever became of its message. */
    async evidence(id: string): Promise<{ bytes: Buffer; mime: string } | undefined> {
      const [row] = rowsOf(
        await db.execute(
          sql`select kind, mime, coalesce(bytes, thumb) as bytes from room_attachments where id = ${id} and evidence_until > now()`,
        ),
      );
      return row
        ? { bytes: Buffer.from(row.bytes as Uint8Array), mime: row.kind === 'voice' ? (row.mime as string) : 'image/webp' }
        : undefined;
    },

    /**
     * Hourly, with the reports' own evidence sweep: evidence past its time whose message was
     * deleted meanwhile goes now, and so do uploads left unsent for a day.
     */
    async deleteExpiredAndUnsent(): Promise<number> {
      const rows = rowsOf(
        await db.execute(sql`delete from room_attachments a where a.evidence_until < now() and not exists (
          select 1 from room_messages m where m.room_id = a.room_id and m.attachment_id = a.id and m.deleted_at is null) returning a.id`),
      );
      const unsent = rowsOf(
        await db.execute(
          sql`delete from room_attachments where client_id is null and created_at < ${new Date(Date.now() - UNSENT_KEPT_MS)} returning id`,
        ),
      );
      return rows.length + unsent.length;
    },
  };
}
export type AttachmentStore = ReturnType<typeof attachmentStore>;
