import { createHmac, hash, timingSafeEqual } from 'node:crypto';

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

/** A message's fields a receipt binds after its version and purpose, in their one order. */
function boundFields(m: Relayed): string[] {
  if (!Number.isSafeInteger(m.sentAt) || m.sentAt < 0) throw new RangeError('sentAt must be a non-negative integer');
  const fields = [m.roomId, m.kind, m.senderId, m.id, String(m.sentAt), m.text];
  // Only a message with a picture has the field: a text's receipt stays what it always was.
  if (m.attachmentId !== undefined) fields.push(m.attachmentId);
  return fields;
}

/** The exact bytes a receipt signs: version, purpose, then every field it binds, in one order. */
export function receiptBytes(m: Relayed): Buffer {
  return lengthPrefixed([RECEIPT_VERSION, RECEIPT_PURPOSE, ...boundFields(m)]);
}

/** A key of its own per use, so a receipt can never be mistaken for (or help forge) a token signature or another MAC. */
const keyFor = (secret: Uint8Array, label: string): Buffer => createHmac('sha256', secret).update(label).digest();

/** SHA-256's block: HMAC pads its key to this. */
const BLOCK = 64;

/**
 * HMAC-SHA256 (RFC 2104) of a receipt's bytes, the same bytes `createHmac` gives, made with two
 * one-shot hashes into one reused buffer: every relayed message is signed, and an Hmac object and
 * a buffer per field cost three times the hashing itself.
 */
function receiptSigner(key: Buffer) {
  const pad = (byte: number) => {
    const p = Buffer.alloc(BLOCK, byte);
    for (let i = 0; i < key.length; i++) p[i]! ^= key[i]!;
    return p;
  };
  // The inner hash's input starts with the padded key, then the fields every receipt shares.
  const head = Buffer.concat([pad(0x36), lengthPrefixed([RECEIPT_VERSION, RECEIPT_PURPOSE])]);
  const outer = Buffer.concat([pad(0x5c), Buffer.alloc(32)]);
  const digest = Buffer.alloc(32);
  let inner = Buffer.allocUnsafe(4096);
  head.copy(inner);
  return (m: Relayed): string => {
    const fields = boundFields(m);
    let size = head.length + 4 * fields.length;
    for (const f of fields) size += Buffer.byteLength(f, 'utf8');
    if (size > inner.length) {
      inner = Buffer.allocUnsafe(size * 2);
      head.copy(inner);
    }
    // Each field as lengthPrefixed writes it, straight into the buffer.
    let at = head.length;
    for (const f of fields) {
      const n = inner.write(f, at + 4, 'utf8');
      inner.writeUInt32BE(n, at);
      at += 4 + n;
    }
    // Digests cross as binary (latin1) strings, one char a byte: asking crypto.hash for 'buffer' takes
    // Node's slow path for an encoding it does not know, three times the cost of the hashing.
    outer.write(hash('sha256', inner.subarray(0, at), 'binary'), BLOCK, 'latin1');
    digest.write(hash('sha256', outer, 'binary'), 0, 'latin1');
    return digest.toString('base64url', 0, 16);
  };
}

/**
 * Server receipts for relayed messages. The server never stores a 1:1 message, yet a report must
 * be able to show what was said: each relayed message carries a MAC that only the server can
 * make, so a reporter's copy can be checked and a made-up message cannot.
 */
export function messageReceipts(secret: Uint8Array) {
  const mac = receiptSigner(keyFor(secret, `${RECEIPT_VERSION} ${RECEIPT_PURPOSE}`));
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
