import { describe, expect, it } from 'vitest';
import { RtpHeader, RtpPacket } from 'werift';
import { BAD_REPORTS_TO_STEP_DOWN, CLEAN_MS_TO_STEP_UP, LayerChooser, LayerSwitch } from './layers.ts';

const layers = [
  { rid: 'h', bps: 1_500_000 },
  { rid: 'm', bps: 500_000 },
  { rid: 'l', bps: 150_000 },
];

/** A VP8-shaped packet: `key` marks the first packet of a keyframe. */
const packet = (seq: number, ts: number, key = false) =>
  new RtpPacket(
    new RtpHeader({ sequenceNumber: seq, timestamp: ts, payloadType: 96 }),
    Buffer.from([key ? 0x10 : 0x00, key ? 0x00 : 0x01, 0, 0]),
  );

describe('LayerChooser', () => {
  it('steps down one layer after sustained loss, not after one bad report, and back up after a clean spell', () => {
    const c = new LayerChooser(0);
    expect(c.choose(layers)).toBe('h');
    expect(c.onLoss(0.3, 1000, 3)).toBe(false);
    expect(c.onLoss(0.01, 1500, 3)).toBe(false);
    for (let i = 0; i < BAD_REPORTS_TO_STEP_DOWN; i++) c.onLoss(0.3, 2000 + i, 3);
    expect(c.choose(layers)).toBe('m');
    for (let i = 0; i < BAD_REPORTS_TO_STEP_DOWN; i++) c.onLoss(0.3, 3000 + i, 3);
    expect(c.choose(layers)).toBe('l');
    // Never below the last layer.
    for (let i = 0; i < 10; i++) c.onLoss(0.5, 4000 + i, 3);
    expect(c.choose(layers)).toBe('l');
    // Clean reports move it up one layer per clean spell.
    expect(c.onLoss(0, 4000 + CLEAN_MS_TO_STEP_UP - 100, 3)).toBe(false);
    expect(c.onLoss(0, 4009 + CLEAN_MS_TO_STEP_UP, 3)).toBe(true);
    expect(c.choose(layers)).toBe('m');
  });

  it('keeps under a bandwidth estimate (REMB) whatever the loss, and follows layers that pause', () => {
    const c = new LayerChooser(0);
    c.onEstimate(600_000);
    expect(c.choose(layers)).toBe('m');
    c.onEstimate(100_000);
    expect(c.choose(layers)).toBe('l');
    c.onEstimate(5_000_000);
    expect(c.choose(layers)).toBe('h');
    // The broadcaster stopped sending its best layer: the next best is what there is.
    expect(c.choose(layers.slice(1))).toBe('m');
    expect(c.choose([])).toBeUndefined();
  });
});

describe('LayerSwitch', () => {
  it('starts on the first packet, switches only at a keyframe of the new layer, and keeps numbering continuous', () => {
    const s = new LayerSwitch();
    s.target = 'h';
    expect(s.take('l', packet(500, 9000))).toBeNull();
    expect(s.take('h', packet(100, 1000))?.header.sequenceNumber).toBe(100);
    expect(s.take('h', packet(101, 1000))?.header.sequenceNumber).toBe(101);
    s.target = 'l';
    // Not a keyframe of the new layer: the old one goes on.
    expect(s.take('l', packet(501, 9000))).toBeNull();
    expect(s.take('h', packet(102, 4000))?.header.sequenceNumber).toBe(102);
    const first = s.take('l', packet(502, 12000, true))!;
    expect(first.header.sequenceNumber).toBe(103);
    expect(first.header.timestamp).toBe(7000);
    expect(s.current).toBe('l');
    expect(s.take('h', packet(103, 7000))).toBeNull();
    expect(s.take('l', packet(503, 15000))?.header).toMatchObject({ sequenceNumber: 104, timestamp: 10000 });
    expect(s.switches).toBe(1);
  });

  it('wraps sequence numbers and timestamps', () => {
    const s = new LayerSwitch();
    s.target = 'h';
    s.take('h', packet(65535, 0xffffffff));
    s.target = 'l';
    const p = s.take('l', packet(10, 5, true))!;
    expect(p.header.sequenceNumber).toBe(0);
    expect(p.header.timestamp).toBe(2999);
  });
});
