import { ATTACHMENT_ERR, VOICE_MAX_MS } from '@parley/contract/attachments';
import { DomainError } from '../platform/errors.ts';

/**
 * Voice messages are checked here before they are kept: the whole file must be one WebM or Ogg
 * container of a single Opus audio stream (nothing else, nothing after it), at most VOICE_MAX_MS
 * long by its own timestamps. Pure JavaScript: the file is walked, never decoded or executed.
 */

export type Voice = { mime: 'audio/webm' | 'audio/ogg'; durationMs: number };

/** A recorder stops a little after its limit: this much over is still the same two minutes. */
const LENGTH_SLACK_MS = 1500;

const notVoice = () => new DomainError('invalid', ATTACHMENT_ERR.notVoice, 'not_voice');

export function checkVoice(file: Buffer): Voice {
  let voice: Voice;
  if (file.subarray(0, 4).equals(EBML_MAGIC)) voice = { mime: 'audio/webm', durationMs: webmDuration(file) };
  else if (file.subarray(0, 4).toString('latin1') === 'OggS') voice = { mime: 'audio/ogg', durationMs: oggDuration(file) };
  else throw notVoice();
  if (voice.durationMs > VOICE_MAX_MS + LENGTH_SLACK_MS) throw new DomainError('invalid', ATTACHMENT_ERR.voiceTooLong, 'voice_too_long');
  return voice;
}

// ---- WebM (Matroska's EBML) ----

const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
const ID = {
  ebml: 0x1a45dfa3,
  docType: 0x4282,
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackType: 0x83,
  codecId: 0x86,
  cluster: 0x1f43b675,
  timecode: 0xe7,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
} as const;
/** Elements whose children are read in line (their size may be unknown in a live recording). */
const MASTERS = new Set<number>([ID.segment, ID.info, ID.tracks, ID.trackEntry, ID.cluster, ID.blockGroup]);
const AUDIO_TRACK = 2;

/** A variable-length integer at `at`: its value (marker bit kept for ids, dropped for sizes) and length; unknown sizes are -1. */
function vint(b: Buffer, at: number, keepMarker: boolean): { value: number; length: number } {
  const first = b[at];
  if (first === undefined || first === 0) throw notVoice();
  const length = Math.clz32(first) - 23;
  if (at + length > b.length || (keepMarker && length > 4)) throw notVoice();
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = b[at + i]!;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value: !keepMarker && allOnes ? -1 : value, length };
}

const uint = (b: Buffer) => {
  if (b.length > 6) throw notVoice();
  return b.length === 0 ? 0 : b.readUIntBE(0, b.length);
};
const float = (b: Buffer) => (b.length === 4 ? b.readFloatBE(0) : b.length === 8 ? b.readDoubleBE(0) : Number.NaN);

/**
 * Walks every element of the file in order: containers are entered, anything else is read or
 * skipped by its size. A file that is not EBML through and through fails somewhere on the way.
 */
function webmDuration(file: Buffer): number {
  let at = 0;
  let docType = '';
  let sawSegment = false;
  let scaleNs = 1_000_000;
  let declaredMs = 0;
  let clusterTime = 0;
  let lastBlockMs = -1;
  let track: { number?: number; type?: number; codec?: string } | null = null;
  const tracks: Array<{ number?: number; type?: number; codec?: string }> = [];
  while (at < file.length) {
    const id = vint(file, at, true);
    const size = vint(file, at + id.length, false);
    const body = at + id.length + size.length;
    if (at === 0 && id.value !== ID.ebml) throw notVoice();
    if (id.value === ID.segment) sawSegment = true;
    if (id.value === ID.trackEntry) {
      track = {};
      tracks.push(track);
    }
    if (MASTERS.has(id.value)) {
      at = body;
      continue;
    }
    if (size.value < 0 || body + size.value > file.length) throw notVoice();
    const data = file.subarray(body, body + size.value);
    if (id.value === ID.ebml) {
      // The header's own children: only its DocType matters.
      for (let i = 0; i < data.length;) {
        const cid = vint(data, i, true);
        const csize = vint(data, i + cid.length, false);
        const start = i + cid.length + csize.length;
        if (csize.value < 0 || start + csize.value > data.length) throw notVoice();
        if (cid.value === ID.docType)
          docType = data
            .subarray(start, start + csize.value)
            .toString('latin1')
            .replace(/\0+$/, '');
        i = start + csize.value;
      }
    } else if (id.value === ID.timecodeScale) scaleNs = uint(data) || scaleNs;
    else if (id.value === ID.duration) declaredMs = float(data);
    else if (id.value === ID.trackNumber && track) track.number = uint(data);
    else if (id.value === ID.trackType && track) track.type = uint(data);
    else if (id.value === ID.codecId && track) track.codec = data.toString('latin1').replace(/\0+$/, '');
    else if (id.value === ID.timecode) clusterTime = uint(data);
    else if (id.value === ID.simpleBlock || id.value === ID.block) {
      const trackNo = vint(data, 0, false);
      if (data.length < trackNo.length + 2) throw notVoice();
      if (!tracks.some((t) => t.number === trackNo.value)) throw notVoice();
      const ms = ((clusterTime + data.readInt16BE(trackNo.length)) * scaleNs) / 1_000_000;
      lastBlockMs = Math.max(lastBlockMs, ms);
    }
    at = body + size.value;
  }
  if (docType !== 'webm' || !sawSegment || lastBlockMs < 0) throw notVoice();
  if (tracks.length !== 1 || tracks[0]!.type !== AUDIO_TRACK || tracks[0]!.codec !== 'A_OPUS') throw notVoice();
  // A live recording declares no duration: its blocks' times say how long it is (a frame lasts 20 ms).
  const blocksMs = lastBlockMs + 20;
  return Math.round(Math.max(Number.isFinite(declaredMs) ? (declaredMs * scaleNs) / 1_000_000 : 0, blocksMs));
}

// ---- Ogg ----

const OPUS_RATE = 48_000;

/** Ogg's CRC-32 (polynomial 0x04c11db7, not reflected), over a page with its checksum field zeroed. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();
function oggCrc(page: Buffer): number {
  let crc = 0;
  for (let i = 0; i < page.length; i++) {
    const byte = i >= 22 && i < 26 ? 0 : page[i]!;
    crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  }
  return crc;
}

/** Every page checked (capture pattern, checksum, one stream), the first an OpusHead; the length from the last granule position. */
function oggDuration(file: Buffer): number {
  let at = 0;
  let serial: number | undefined;
  let preSkip = 0;
  let granule = 0;
  let pages = 0;
  while (at < file.length) {
    if (at + 27 > file.length || file.toString('latin1', at, at + 4) !== 'OggS' || file[at + 4] !== 0) throw notVoice();
    const segments = file[at + 26]!;
    if (at + 27 + segments > file.length) throw notVoice();
    let bodyLength = 0;
    for (let i = 0; i < segments; i++) bodyLength += file[at + 27 + i]!;
    const end = at + 27 + segments + bodyLength;
    if (end > file.length) throw notVoice();
    const page = file.subarray(at, end);
    if (oggCrc(page) !== page.readUInt32LE(22)) throw notVoice();
    const pageSerial = page.readUInt32LE(14);
    if (serial === undefined) serial = pageSerial;
    else if (pageSerial !== serial) throw notVoice();
    const body = page.subarray(27 + segments);
    if (pages === 0) {
      if (body.length < 19 || body.toString('latin1', 0, 8) !== 'OpusHead' || (body[8]! & 0xf0) !== 0) throw notVoice();
      preSkip = body.readUInt16LE(10);
    } else if (pages === 1 && body.toString('latin1', 0, 8) !== 'OpusTags') throw notVoice();
    const g = page.readBigInt64LE(6);
    if (g >= 0n) granule = Math.max(granule, Number(g));
    pages++;
    at = end;
  }
  if (pages < 3) throw notVoice();
  return Math.round((Math.max(0, granule - preSkip) * 1000) / OPUS_RATE);
}
