import { z } from 'zod';
import { IMAGE_TYPES } from './people.ts';

/**
 * Pictures and voice messages in stored conversations (group rooms and direct messages), and
 * pictures in a 1:1 chat with a stranger while both its members allow them: uploaded first
 * (POST /api/rooms/:roomId/attachments, the raw file as the body), then posted as a message naming
 * the upload's id. The files are served only to the room's members.
 */
export const ATTACHMENT_KINDS = ['image', 'voice'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

/** Pictures: the largest file accepted, the formats read (decided by content, not by this type). */
export const PICTURE_MAX_BYTES = 10 * 1024 * 1024;
export const PICTURE_TYPES = IMAGE_TYPES;
/** Neither side of a picture may be longer than this (a panorama beyond it is not a chat picture). */
export const PICTURE_MAX_SIDE = 10_000;
/** How a picture is stored: at most this long on its longer side, and its thumbnail. */
export const PICTURE_FULL_PX = 2048;
export const PICTURE_THUMB_PX = 480;

/** Voice messages: Opus in WebM or Ogg, at most two minutes. */
export const VOICE_MAX_MS = 2 * 60 * 1000;
export const VOICE_MAX_BYTES = 3 * 1024 * 1024;
export const VOICE_TYPES = ['audio/webm', 'audio/ogg'] as const;

/** A 1:1 chat's pictures are deleted this long after the chat ends, unless a report keeps them (the privacy policy says so). */
export const CHAT_PICTURES_GRACE_MS = 10 * 60 * 1000;

/** Per person and per room, uploads a minute; and how much one person's attachments may take in all. */
export const ATTACHMENTS_PER_USER_MINUTE = 12;
export const ATTACHMENTS_PER_ROOM_MINUTE = 40;
export const ATTACHMENT_STORAGE_CAP_BYTES = 200 * 1024 * 1024;

export const ATTACHMENT_ERR = {
  notHere: 'Pictures and voice messages can be sent in group rooms and direct messages only.',
  notAPicture: 'That file is not a picture Parley can read. Use a JPEG, PNG, WebP or HEIC photo.',
  pictureTooLarge: 'That picture is larger than 10 MB. Choose a smaller one.',
  pictureTooWide: `That picture is too large. Neither side may be longer than ${PICTURE_MAX_SIDE} pixels.`,
  notVoice: 'That file is not a voice message Parley can play. Record it again.',
  voiceTooLong: 'Voice messages can be at most 2 minutes long.',
  voiceTooLarge: 'That voice message is too large. Record a shorter one.',
  tooFast: 'You are sending pictures and voice messages too fast. Wait a minute and try again.',
  roomTooFast: 'Many pictures and voice messages are being sent here right now. Wait a minute and try again.',
  storageFull: `You have used all ${ATTACHMENT_STORAGE_CAP_BYTES / 1024 / 1024} MB for pictures and voice messages. Delete some of your older ones to send more.`,
  notYours: 'That picture or voice message cannot be sent here. Upload it again.',
  gone: 'That picture or voice message is gone.',
  picturesNotAllowed: 'Pictures can be sent in this chat only while you both allow them.',
} as const;

export const attachmentIdSchema = z.uuid({ error: 'Unknown attachment' });
/** POST /api/rooms/:roomId/attachments?kind= */
export const uploadQuerySchema = z.object({ kind: z.enum(ATTACHMENT_KINDS, { error: 'Say whether it is a picture or a voice message' }) });
/** GET /api/rooms/:roomId/attachments/:id/:variant — the picture, its thumbnail, or the recording. */
export const ATTACHMENT_VARIANTS = ['full', 'thumb', 'audio'] as const;
export const attachmentVariantSchema = z.enum(ATTACHMENT_VARIANTS, { error: 'Unknown variant' });

/** An attachment as a message carries it: what the page needs to lay it out before fetching it. */
export type MessageAttachment = {
  id: string;
  kind: AttachmentKind;
  /** Pictures: the stored full-size picture's size in pixels. */
  width?: number;
  height?: number;
  /** Voice messages: the length in milliseconds. */
  durationMs?: number;
  /** Where a member fetches it (signed in): the picture or the recording, and a picture's thumbnail. */
  url: string;
  thumbUrl?: string;
};

export const attachmentUrl = (roomId: string, id: string, variant: (typeof ATTACHMENT_VARIANTS)[number]) =>
  `/api/rooms/${roomId}/attachments/${id}/${variant}`;

/** Server → client payload check of an attachment. */
export const messageAttachmentCheck = z.object({
  id: z.string(),
  kind: z.enum(ATTACHMENT_KINDS),
  width: z.number().optional(),
  height: z.number().optional(),
  durationMs: z.number().optional(),
  url: z.string(),
  thumbUrl: z.string().optional(),
});
