/**
 * One room's held messages, packed: a few typed arrays and one byte buffer per room instead of
 * objects per message. A 1:1 chat holds every message for as long as it lasts (up to its log's
 * capacity), on every process, for every pair; as objects (a record, its text, its client id, its
 * time) those were most of the server's heap and of what each full collection had to mark. Here a
 * message is 32 bytes of columns plus its text and client id as bytes, outside the collected heap;
 * strings are made again only when a message is read back (a catch-up, an edit, a report), which
 * is rare beside sending.
 */

/** Per entry in `cols`: id, sender, text's offset and bytes, client id's offset and bytes (-1: none), client id's hash, flags. */
const STRIDE = 8;
const ID = 0;
const SENDER = 1;
const TEXT_AT = 2;
const TEXT_LEN = 3;
const CLIENT_AT = 4;
const CLIENT_LEN = 5;
const CLIENT_HASH = 6;
const FLAGS = 7;
/** The text, or the client id, is not well-formed UTF-16 (a lone surrogate): kept as UTF-16 so it reads back unchanged. */
const TEXT_UTF16 = 1;
const CLIENT_UTF16 = 2;

const FIRST_ENTRIES = 8;
const FEW_SENDERS = 8;
const FIRST_BYTES = 256;
/**
 * Columns and bytes grow by half again, to what the held messages need (not to a power of two):
 * a chat's buffer holds its bytes with at most half again to spare, not up to four times them.
 */
const GROWTH = 1.5;

/** FNV-1a over UTF-16 code units: a resend is looked for by its client id's hash first. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}

export class PackedMessages {
  /** Entries [start, end) are the room's messages, oldest first. */
  private start = 0;
  private end = 0;
  private cols = new Int32Array(FIRST_ENTRIES * STRIDE);
  private sentAt = new Float64Array(FIRST_ENTRIES);
  private bytes = Buffer.allocUnsafeSlow(FIRST_BYTES);
  private used = 0;
  /** Who sent what: a 1:1 chat has two, a stream's chat as many as wrote within its window. */
  private senderIds: string[] = [];
  private senderNames: string[] = [];
  /** Made once the table outgrows a scan (a stream's chat; never a 1:1 chat's). */
  private senderIndex: Map<string, number> | undefined;

  get size(): number {
    return this.end - this.start;
  }

  /** The index of the message with this id, or -1 (ids increase, and are consecutive but for a restored log's gaps). */
  indexOf(id: number): number {
    if (this.end === this.start) return -1;
    const cols = this.cols;
    const guess = this.start + (id - cols[this.start * STRIDE + ID]!);
    if (guess >= this.start && guess < this.end && cols[guess * STRIDE + ID] === id) return guess;
    for (let i = this.start; i < this.end; i++) if (cols[i * STRIDE + ID] === id) return i;
    return -1;
  }

  /** Indexes of the held messages, oldest first: from `firstIndex()` up to, not including, `endIndex()`. */
  firstIndex(): number {
    return this.start;
  }
  endIndex(): number {
    return this.end;
  }

  id(i: number): number {
    return this.cols[i * STRIDE + ID]!;
  }
  senderId(i: number): string {
    return this.senderIds[this.cols[i * STRIDE + SENDER]!]!;
  }
  senderName(i: number): string {
    return this.senderNames[this.cols[i * STRIDE + SENDER]!]!;
  }
  time(i: number): number {
    return this.sentAt[i]!;
  }
  text(i: number): string {
    const c = i * STRIDE;
    const at = this.cols[c + TEXT_AT]!;
    return this.bytes.toString(this.cols[c + FLAGS]! & TEXT_UTF16 ? 'utf16le' : 'utf8', at, at + this.cols[c + TEXT_LEN]!);
  }
  clientId(i: number): string | null {
    const c = i * STRIDE;
    const len = this.cols[c + CLIENT_LEN]!;
    if (len < 0) return null;
    const at = this.cols[c + CLIENT_AT]!;
    return this.bytes.toString(this.cols[c + FLAGS]! & CLIENT_UTF16 ? 'utf16le' : 'utf8', at, at + len);
  }

  /** The newest message this sender posted under this client id, or -1: a resend whose acknowledgement was lost. */
  resent(senderId: string, clientId: string): number {
    const hash = hashOf(clientId);
    const cols = this.cols;
    for (let i = this.end - 1; i >= this.start; i--)
      if (cols[i * STRIDE + CLIENT_HASH] === hash && this.clientId(i) === clientId && this.senderId(i) === senderId) return i;
    return -1;
  }

  /** Adds a message as the newest; answers its index. */
  push(id: number, senderId: string, senderName: string, text: string, sentAt: number, clientId: string | null): number {
    if (this.end * STRIDE === this.cols.length) this.makeRoom();
    const i = this.end++;
    const c = i * STRIDE;
    const cols = this.cols;
    cols[c + ID] = id;
    cols[c + SENDER] = this.sender(senderId, senderName);
    this.sentAt[i] = sentAt;
    // The slot may hold a trimmed message's columns: cleared first, so a compaction during the
    // writes below copies nothing of that message.
    cols[c + FLAGS] = 0;
    cols[c + TEXT_LEN] = 0;
    cols[c + CLIENT_LEN] = -1;
    cols[c + CLIENT_HASH] = 0;
    this.writeText(i, text);
    if (clientId !== null) {
      const utf16 = !clientId.isWellFormed();
      this.write(c + CLIENT_AT, c + CLIENT_LEN, clientId, utf16);
      cols[c + CLIENT_HASH] = hashOf(clientId);
      if (utf16) cols[c + FLAGS]! |= CLIENT_UTF16;
    }
    return i;
  }

  /** A new text for the message (an edit; '' as a deletion leaves it): the old bytes are reclaimed at the next compaction. */
  setText(i: number, text: string): void {
    this.writeText(i, text);
  }

  /** Forgets the oldest messages until at most `keep` are left. */
  trimTo(keep: number): void {
    if (this.end - this.start > keep) this.start = this.end - keep;
  }

  private writeText(i: number, text: string) {
    const c = i * STRIDE;
    const utf16 = !text.isWellFormed();
    // Empty first: a compaction during the write then drops the replaced text rather than copying it.
    this.cols[c + TEXT_LEN] = 0;
    this.write(c + TEXT_AT, c + TEXT_LEN, text, utf16);
    this.cols[c + FLAGS] = (this.cols[c + FLAGS]! & ~TEXT_UTF16) | (utf16 ? TEXT_UTF16 : 0);
  }

  /** Writes a string's bytes after the last ones and puts where and how many in the two columns. */
  private write(atCol: number, lenCol: number, s: string, utf16: boolean) {
    const encoding = utf16 ? 'utf16le' : 'utf8';
    // A UTF-16 unit takes at most 3 bytes in UTF-8: the exact count is needed only near the end.
    if (s.length > 0 && this.used + s.length * 3 > this.bytes.length) {
      const need = Buffer.byteLength(s, encoding);
      if (this.used + need > this.bytes.length) this.compact(need);
    }
    const len = s.length === 0 ? 0 : this.bytes.write(s, this.used, encoding);
    this.cols[atCol] = this.used;
    this.cols[lenCol] = len;
    this.used += len;
  }

  /**
   * Copies the held messages' bytes into a buffer half again their size and the new string's
   * (compactions stay rare, their cost spread over the writes between them), leaving out the
   * trimmed and replaced ones, and keeps only the senders still named.
   */
  private compact(more: number) {
    const cols = this.cols;
    let live = 0;
    for (let i = this.start; i < this.end; i++) {
      const c = i * STRIDE;
      live += cols[c + TEXT_LEN]! + Math.max(0, cols[c + CLIENT_LEN]!);
    }
    const size = Math.max(FIRST_BYTES, Math.ceil((GROWTH * (live + more)) / 64) * 64);
    const from = this.bytes;
    const to = Buffer.allocUnsafeSlow(size);
    let used = 0;
    const move = (c: number, atCol: number, lenCol: number) => {
      const len = cols[c + lenCol]!;
      if (len <= 0) return;
      const at = cols[c + atCol]!;
      from.copy(to, used, at, at + len);
      cols[c + atCol] = used;
      used += len;
    };
    const [ids, names] = [this.senderIds, this.senderNames];
    this.senderIds = [];
    this.senderNames = [];
    this.senderIndex = undefined;
    for (let i = this.start; i < this.end; i++) {
      const c = i * STRIDE;
      move(c, TEXT_AT, TEXT_LEN);
      move(c, CLIENT_AT, CLIENT_LEN);
      cols[c + SENDER] = this.sender(ids[cols[c + SENDER]!]!, names[cols[c + SENDER]!]!);
    }
    this.bytes = to;
    this.used = used;
  }

  /** Room for one more entry: the held ones moved down when at least half the columns are trimmed ones, else longer columns. */
  private makeRoom() {
    const count = this.end - this.start;
    const entries = this.cols.length / STRIDE;
    if (this.start >= entries / 2) {
      this.cols.copyWithin(0, this.start * STRIDE, this.end * STRIDE);
      this.sentAt.copyWithin(0, this.start, this.end);
    } else {
      const grown = Math.ceil(entries * GROWTH);
      const cols = new Int32Array(grown * STRIDE);
      cols.set(this.cols.subarray(this.start * STRIDE, this.end * STRIDE));
      const sentAt = new Float64Array(grown);
      sentAt.set(this.sentAt.subarray(this.start, this.end));
      this.cols = cols;
      this.sentAt = sentAt;
    }
    this.start = 0;
    this.end = count;
  }

  /** The sender's place in the table: a few are compared as they are (a 1:1 chat has two), more through an index. */
  private sender(id: string, name: string): number {
    const ids = this.senderIds;
    if (ids.length <= FEW_SENDERS) {
      for (let s = 0; s < ids.length; s++) if (ids[s] === id && this.senderNames[s] === name) return s;
      if (ids.length < FEW_SENDERS) return this.addSender(id, name);
    }
    let index = this.senderIndex;
    if (!index) {
      // The table outgrows a scan: index what it holds.
      index = this.senderIndex = new Map();
      for (let s = 0; s < ids.length; s++) index.set(ids[s] + '\u0000' + this.senderNames[s], s);
    }
    const key = id + '\u0000' + name;
    const s = index.get(key);
    if (s !== undefined) return s;
    index.set(key, ids.length);
    return this.addSender(id, name);
  }

  private addSender(id: string, name: string): number {
    this.senderIds.push(id);
    this.senderNames.push(name);
    return this.senderIds.length - 1;
  }
}
