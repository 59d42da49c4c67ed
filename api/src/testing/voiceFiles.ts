/**
 * Small voice recordings built byte by byte for tests: a WebM as a browser's MediaRecorder writes
 * one (a live Segment and Clusters of unknown size, no declared duration) and an Ogg Opus stream.
 * Their frames are placeholders: the server checks containers, it never decodes the sound.
 */

const vintSize = (n: number) => {
  // Eight-byte sizes keep the writer simple; readers accept any length.
  const b = Buffer.alloc(8);
  b[0] = 0x01;
  b.writeUIntBE(n, 2, 6);
  return b;
};
const UNKNOWN = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
const idBytes = (id: number) => Buffer.from(id.toString(16).padStart(id > 0xffffff ? 8 : id > 0xffff ? 6 : id > 0xff ? 4 : 2, '0'), 'hex');
const el = (id: number, ...body: Buffer[]) => {
  const data = Buffer.concat(body);
  return Buffer.concat([idBytes(id), vintSize(data.length), data]);
};
const live = (id: number, ...body: Buffer[]) => Buffer.concat([idBytes(id), UNKNOWN, ...body]);
const u = (n: number, bytes = 4) => {
  const b = Buffer.alloc(bytes);
  b.writeUIntBE(n, 0, bytes);
  return b;
};
const str = (s: string) => Buffer.from(s, 'latin1');

/** A WebM of `seconds` of 20 ms frames of one track of `codec` (A_OPUS, or another to be refused). */
export function webmVoice(seconds: number, codec = 'A_OPUS', trackType = 2): Buffer {
  const header = el(0x1a45dfa3, el(0x4286, u(1, 1)), el(0x4282, str('webm')), el(0x4287, u(4, 1)), el(0x4285, u(2, 1)));
  const info = el(0x1549a966, el(0x2ad7b1, u(1_000_000)), el(0x4d80, str('test')), el(0x5741, str('test')));
  const tracks = el(
    0x1654ae6b,
    el(0xae, el(0xd7, u(1, 1)), el(0x73c5, u(1234)), el(0x83, u(trackType, 1)), el(0x86, str(codec)), el(0x63a2, str('OpusHead'))),
  );
  const clusters: Buffer[] = [];
  const frames = Math.floor((seconds * 1000) / 20);
  // A cluster every 5 s: block times are 16-bit offsets from their cluster's.
  for (let start = 0; start < frames; start += 250) {
    const blocks: Buffer[] = [];
    for (let f = start; f < Math.min(frames, start + 250); f++) {
      const rel = Buffer.alloc(2);
      rel.writeInt16BE((f - start) * 20);
      blocks.push(el(0xa3, Buffer.from([0x81]), rel, Buffer.from([0x80]), Buffer.alloc(12, 0xfc)));
    }
    clusters.push(live(0x1f43b675, el(0xe7, u(start * 20)), ...blocks));
  }
  return Buffer.concat([header, live(0x18538067, info, tracks, ...clusters)]);
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    t[i] = r >>> 0;
  }
  return t;
})();
function oggPage(body: Buffer, granule: bigint, seq: number, flags: number): Buffer {
  const lacing: number[] = [];
  let left = body.length;
  while (left >= 255) {
    lacing.push(255);
    left -= 255;
  }
  lacing.push(left);
  const head = Buffer.alloc(27);
  head.write('OggS', 0, 'latin1');
  head[5] = flags;
  head.writeBigInt64LE(granule, 6);
  head.writeUInt32LE(0x5eed, 14);
  head.writeUInt32LE(seq, 18);
  head[26] = lacing.length;
  const page = Buffer.concat([head, Buffer.from(lacing), body]);
  let crc = 0;
  for (const byte of page) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  page.writeUInt32LE(crc, 22);
  return page;
}

/** An Ogg Opus stream of `seconds` (pre-skip 312), a page a second. */
export function oggVoice(seconds: number): Buffer {
  const opusHead = Buffer.concat([str('OpusHead'), Buffer.from([1, 1, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0])]);
  const pages = [oggPage(opusHead, 0n, 0, 2), oggPage(Buffer.concat([str('OpusTags'), u(0), u(0)]), 0n, 1, 0)];
  for (let s = 1; s <= seconds; s++) pages.push(oggPage(Buffer.alloc(200, 0xfc), BigInt(312 + s * 48_000), s + 1, s === seconds ? 4 : 0));
  return Buffer.concat(pages);
}
