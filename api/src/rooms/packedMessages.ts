/**
 * One room's held messages, packed: one typed array of columns and one byte buffer per room
 * instead of objects per message. A 1:1 chat holds every message for as long as it lasts (up to its log's
 * capacity), on every process, for every pair; as objects (a record, its text, its client id, its
 * time) those were most of the server's heap and of what each full collection had to mark. Here a
 * message is 32 bytes of columns (its time among them) plus its text and client id as bytes,
 * outside the collected heap; strings are made again only when a message is read back (a
 * catch-up, an edit, a report), which is rare beside sending.
 */

/**
 * Per entry in `cols`: id; sender's place in the table (shifted left 2) with the two flags below;
 * where its bytes start (the text's, then the client id's), the text's byte count and the client
 * id's (-1: none); the client id's hash; and the time, as a float64 over the last two.
 */
const STRIDE = 8;
const ID = 0;
const SENDER = 1;
const BYTES_AT = 2;
const TEXT_LEN = 3;
const CLIENT_LEN = 4;
const CLIENT_HASH = 5;
/** The time's index in the float64 view, counted in entries of STRIDE / 2. */
const TIME = 3;
const TIMES_STRIDE = STRIDE / 2;
/** The text, or the client id, is not well-formed UTF-16 (a lone surrogate): kept as UTF-16 so it reads back unchanged. */
const TEXT_UTF16 = 1;
const CLIENT_UTF16 = 2;
const FLAGS = 3;

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
  /** The same memory as `cols`: one buffer per room for every column. */
  private times = new Float64Array(this.cols.buffer);
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
    return this.senderIds[this.cols[i * STRIDE + SENDER]! >> 2]!;
  }
  senderName(i: number): string {
    return this.senderNames[this.cols[i * STRIDE + SENDER]! >> 2]!;
  }
  time(i: number): number {
    return this.times[i * TIMES_STRIDE + TIME]!;
  }
  text(i: number): string {
    const c = i * STRIDE;
    const at = this.cols[c + BYTES_AT]!;
    return this.bytes.toString(this.cols[c + SENDER]! & TEXT_UTF16 ? 'utf16le' : 'utf8', at, at + this.cols[c + TEXT_LEN]!);
  }
  clientId(i: number): string | null {
    const c = i * STRIDE;
    const len = this.cols[c + CLIENT_LEN]!;
    if (len < 0) return null;
    const at = this.cols[c + BYTES_AT]! + this.cols[c + TEXT_LEN]!;
    return this.bytes.toString(this.cols[c + SENDER]! & CLIENT_UTF16 ? 'utf16le' : 'utf8', at, at + len);
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
    // Named before the bytes are written: a compaction meanwhile maps every held sender again.
    cols[c + SENDER] = this.sender(senderId, senderName) << 2;
    cols[c + CLIENT_HASH] = clientId === null ? 0 : hashOf(clientId);
    this.times[i * TIMES_STRIDE + TIME] = sentAt;
    this.writeBytes(i, text, clientId);
    return i;
  }

  /** A new text for the message (an edit; '' as a deletion leaves it): the old bytes are reclaimed at the next compaction. */
  setText(i: number, text: string): void {
    this.writeBytes(i, text, this.clientId(i));
  }

  /** Forgets the oldest messages until at most `keep` are left. */
  trimTo(keep: number): void {
    if (this.end - this.start > keep) this.start = this.end - keep;
  }

  /** Writes the text's bytes and then the client id's after the last ones, and where and how many in the columns. */
  private writeBytes(i: number, text: string, clientId: string | null) {
    const c = i * STRIDE;
    const cols = this.cols;
    const textUtf16 = !text.isWellFormed();
    const clientUtf16 = clientId !== null && !clientId.isWellFormed();
    const textEncoding = textUtf16 ? 'utf16le' : 'utf8';
    const clientEncoding = clientUtf16 ? 'utf16le' : 'utf8';
    // Empty first: a compaction below then drops what the message held rather than copying it.
    cols[c + TEXT_LEN] = 0;
    cols[c + CLIENT_LEN] = -1;
    // A UTF-16 unit takes at most 3 bytes in UTF-8: the exact count is needed only near the end.
    const most = (text.length + (clientId?.length ?? 0)) * 3;
    if (most > 0 && this.used + most > this.bytes.length) {
      const need = Buffer.byteLength(text, textEncoding) + (clientId === null ? 0 : Buffer.byteLength(clientId, clientEncoding));
      if (this.used + need > this.bytes.length) this.compact(need);
    }
    const at = this.used;
    const textLen = text.length === 0 ? 0 : this.bytes.write(text, at, textEncoding);
    const clientLen = clientId === null ? -1 : clientId.length === 0 ? 0 : this.bytes.write(clientId, at + textLen, clientEncoding);
    cols[c + BYTES_AT] = at;
    cols[c + TEXT_LEN] = textLen;
    cols[c + CLIENT_LEN] = clientLen;
    cols[c + SENDER] = (cols[c + SENDER]! & ~FLAGS) | (textUtf16 ? TEXT_UTF16 : 0) | (clientUtf16 ? CLIENT_UTF16 : 0);
    this.used = at + textLen + Math.max(0, clientLen);
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
    const [ids, names] = [this.senderIds, this.senderNames];
    this.senderIds = [];
    this.senderNames = [];
    this.senderIndex = undefined;
    for (let i = this.start; i < this.end; i++) {
      const c = i * STRIDE;
      const len = cols[c + TEXT_LEN]! + Math.max(0, cols[c + CLIENT_LEN]!);
      if (len > 0) {
        const at = cols[c + BYTES_AT]!;
        from.copy(to, used, at, at + len);
      }
      cols[c + BYTES_AT] = used;
      used += len;
      const s = cols[c + SENDER]!;
      cols[c + SENDER] = (this.sender(ids[s >> 2]!, names[s >> 2]!) << 2) | (s & FLAGS);
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
    } else {
      const cols = new Int32Array(Math.ceil(entries * GROWTH) * STRIDE);
      cols.set(this.cols.subarray(this.start * STRIDE, this.end * STRIDE));
      this.cols = cols;
      this.times = new Float64Array(cols.buffer);
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
