import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

/** What a receipt vouches for: this text was relayed by the server, from this sender, in this room, then. */
export type Relayed = { roomId: string; senderId: string; id: string; sentAt: number; text: string };

/**
 * Server receipts for relayed messages. The server never stores a 1:1 message, yet a report must
 * be able to show what was said: each relayed message carries a MAC that only the server can
 * make, so a reporter's copy can be checked and a made-up message cannot.
 */
export function messageReceipts(secret: Uint8Array) {
  // A key of its own, so a receipt can never be mistaken for (or help forge) a token signature.
  // Imported once as a key object: every relayed message is signed with it.
  const key = createSecretKey(createHmac('sha256', secret).update('parley message receipts v1').digest());
  const mac = (m: Relayed) =>
    createHmac('sha256', key)
      .update(`${m.roomId}\n${m.senderId}\n${m.id}\n${m.sentAt}\n${m.text}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  return {
    sign: mac,
    verify(m: Relayed, receipt: string): boolean {
      const expected = Buffer.from(mac(m));
      const given = Buffer.from(receipt);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type MessageReceipts = ReturnType<typeof messageReceipts>;
