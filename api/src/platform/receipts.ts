import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * What a receipt vouches for: this text (and this picture, when it carried one) was relayed by the
 * server, from this sender, in this room of this kind, under the server's id for it, then.
 */
export type Relayed = {
  roomId: string;
  kind: string;
  senderId: string;
  id: string;
  sentAt: number;
  text: string;
  attachmentId?: string | undefined;
};

/** Names what the signed bytes are, so a MAC made for one purpose never passes for another. */
export const RECEIPT_VERSION = 'parley.receipt.v2';
export const RECEIPT_PURPOSE = 'relayed-1to1-message';

/**
 * Fields as bytes nobody can shift from one field into the next: each is its UTF-8 length (4 bytes,
 * big-endian) then its bytes. Joining with a separator let a field that contains the separator
 * stand for several fields.
 */
export function lengthPrefixed(fields: readonly string[]): Buffer {
  const parts: Buffer[] = [];
  for (const field of fields) {
    const bytes = Buffer.from(field, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    parts.push(length, bytes);
  }
  return Buffer.concat(parts);
}

/** The exact bytes a receipt signs: version, purpose, then every field it binds, in one order. */
export function receiptBytes(m: Relayed): Buffer {
  if (!Number.isSafeInteger(m.sentAt) || m.sentAt < 0) throw new RangeError('sentAt must be a non-negative integer');
  const fields = [RECEIPT_VERSION, RECEIPT_PURPOSE, m.roomId, m.kind, m.senderId, m.id, String(m.sentAt), m.text];
  // Only a message with a picture has the field: a text's receipt stays what it always was.
  return lengthPrefixed(m.attachmentId === undefined ? fields : [...fields, m.attachmentId]);
}

/** A key of its own per use, so a receipt can never be mistaken for (or help forge) a token signature or another MAC. */
const keyFor = (secret: Uint8Array, label: string): KeyObject => createSecretKey(createHmac('sha256', secret).update(label).digest());

/**
 * Server receipts for relayed messages. The server never stores a 1:1 message, yet a report must
 * be able to show what was said: each relayed message carries a MAC that only the server can
 * make, so a reporter's copy can be checked and a made-up message cannot.
 */
export function messageReceipts(secret: Uint8Array) {
  // Imported once as key objects: every relayed message is signed with them.
  const receiptKey = keyFor(secret, `${RECEIPT_VERSION} ${RECEIPT_PURPOSE}`);
  const mac = (m: Relayed) => createHmac('sha256', receiptKey).update(receiptBytes(m)).digest().subarray(0, 16).toString('base64url');
  return {
    sign: mac,
    verify(m: Relayed, receipt: string): boolean {
      if (!Number.isSafeInteger(m.sentAt) || m.sentAt < 0) return false;
      const expected = Buffer.from(mac(m));
      const given = Buffer.from(receipt);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type MessageReceipts = ReturnType<typeof messageReceipts>;
