import {
  MAX_EVIDENCE_MESSAGES,
  SAFETY_ERR,
  SERVER_EVIDENCE_CONTEXTS,
  type EvidenceView,
  type ReportContext,
  type RoomMessageId,
  type reportSchema,
} from '@parley/contract/safety';
import type { z } from 'zod';
import type { MessageMedia } from '@parley/contract/media';
import { DomainError } from '../platform/errors.ts';

/** One message of a room as the server holds it. */
export type HeldMessage = {
  id: RoomMessageId;
  senderId: string;
  senderName: string;
  text: string;
  sentAt: number;
  attachment?: { id: string; kind: 'image' | 'voice' } | undefined;
  media?: MessageMedia | undefined;
};

/**
 * A room whose messages the server holds (a group room, a direct conversation, a live chat),
 * read-only, as reports need it. The rooms and live areas answer it; server.ts wires them here.
 */
export type HeldEvidence = {
  /** Throws a DomainError unless the reporter is in the room; answers whether `otherId` is (or wrote there). */
  access(roomId: string, reporterId: string, otherId: string): Promise<{ otherInRoom: boolean }>;
  /** The room's messages of these ids; ids not in the room are left out. */
  byIds(roomId: string, ids: RoomMessageId[]): Promise<HeldMessage[]>;
  /** Up to `limit` messages around `id` (the newest when undefined), oldest first. */
  around(roomId: string, id: RoomMessageId | undefined, limit: number): Promise<HeldMessage[]>;
  /** The report keeps these attachments of the room's as evidence (a deletion leaves them for moderators). */
  keep?(roomId: string, attachmentIds: string[]): Promise<void>;
};
/** Each is looked up when a report is filed (the rooms and live areas exist by then). */
export type HeldEvidenceSources = Partial<Record<HeldContext, () => HeldEvidence>>;

type HeldContext = (typeof SERVER_EVIDENCE_CONTEXTS)[number];
type Report = z.output<typeof reportSchema>;

export const isHeldContext = (c: ReportContext): c is HeldContext => (SERVER_EVIDENCE_CONTEXTS as readonly string[]).includes(c);
const refuse = (failure: DomainError['failure'], message: string, code: string) => new DomainError(failure, message, code);

/**
 * The evidence of a report from a room the server holds: read from the server's own copy, never the
 * reporter's. The reporter must be in the room, every id must be a message of that room, and a
 * reported message must be the reported person's.
 */
export async function heldEvidence(
  sources: HeldEvidenceSources,
  reporterId: string,
  context: HeldContext,
  body: Report,
): Promise<EvidenceView[]> {
  const source = sources[context]?.();
  if (!source) throw refuse('unavailable', 'Reports from here are not available on this server.', 'unavailable');
  if (!body.roomId) throw refuse('invalid', SAFETY_ERR.roomNeeded, 'room_needed');
  if (body.messages.length > 0) throw refuse('invalid', SAFETY_ERR.forgedEvidence, 'forged_evidence');
  const { roomId, reportedUserId, messageId } = body;
  const { otherInRoom } = await source.access(roomId, reporterId, reportedUserId);

  let held: HeldMessage[];
  if (body.messageIds && body.messageIds.length > 0) {
    const wanted = new Set(body.messageIds);
    held = await source.byIds(roomId, [...wanted]);
    if (held.length !== wanted.size) throw refuse('invalid', SAFETY_ERR.evidenceNotInRoom, 'evidence_not_in_room');
  } else {
    held = await source.around(roomId, messageId, MAX_EVIDENCE_MESSAGES);
  }
  if (messageId !== undefined) {
    const target = held.find((m) => m.id === messageId) ?? (await source.byIds(roomId, [messageId]))[0];
    if (!target) throw refuse('invalid', SAFETY_ERR.evidenceNotInRoom, 'evidence_not_in_room');
    if (target.senderId !== reportedUserId) throw refuse('invalid', SAFETY_ERR.notTheSender, 'not_the_sender');
    if (!held.includes(target)) held = [...held.slice(-(MAX_EVIDENCE_MESSAGES - 1)), target];
  } else if (!otherInRoom) {
    throw refuse('invalid', 'That person is not in this room.', 'not_in_room');
  }
  await source.keep?.(
    roomId,
    held.flatMap((m) => (m.attachment ? [m.attachment.id] : [])),
  );
  return held
    .sort((a, b) => a.sentAt - b.sentAt)
    .map((m) => ({
      from: m.senderId === reporterId ? 'reporter' : m.senderId === reportedUserId ? 'reported' : 'other',
      sender: m.senderName,
      text: m.text,
      sentAt: m.sentAt,
      ...(messageId !== undefined && m.id === messageId ? { reported: true } : {}),
      ...(m.attachment && { attachment: m.attachment }),
      ...(m.media && { media: m.media }),
    }));
}
