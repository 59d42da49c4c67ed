import type { RtpPacket } from 'werift';
import { werift } from './werift.ts';

/**
 * Simulcast layers as the broadcaster's page names them (`sendEncodings` rids), best first. A
 * stream without simulcast has one layer, named ''.
 */
export const LAYER_ORDER = ['h', 'm', 'l'] as const;
export const rank = (rid: string) => {
  const at = (LAYER_ORDER as readonly string[]).indexOf(rid);
  return at < 0 ? -1 : at;
};

/** Loss (0–1) in a viewer's receiver report above which their link is taken as overloaded. */
export const LOSS_HIGH = 0.08;
/** Loss below which a report counts as clean. */
export const LOSS_LOW = 0.02;
/** Overloaded reports in a row before stepping down (reports come every 0.5–1.5 s). */
export const BAD_REPORTS_TO_STEP_DOWN = 2;
/** Clean time (no overloaded report, no step) before trying the next better layer. */
export const CLEAN_MS_TO_STEP_UP = 8_000;

/**
 * Which layer one viewer should get, from what their receiver says: lost packets (receiver
 * reports) and, where the browser sends it, its bandwidth estimate (REMB). Steps down at once on
 * sustained loss or an estimate below the layer's rate; steps up one layer after a clean spell.
 */
export class LayerChooser {
  /** Index into the stream's layers (best first) this viewer may get at most. */
  private cap = 0;
  private bad = 0;
  private lastStep: number;
  private lastBad = 0;
  private estimate: number | undefined;

  constructor(now: number) {
    this.lastStep = now;
  }

  /** `layers`: the stream's layers, best first, with their measured bit rates. */
  choose(layers: Array<{ rid: string; bps: number }>): string | undefined {
    if (layers.length === 0) return undefined;
    let at = Math.min(this.cap, layers.length - 1);
    // A bandwidth estimate below a layer's rate rules that layer out, whatever the loss says.
    if (this.estimate !== undefined) while (at < layers.length - 1 && layers[at]!.bps > this.estimate) at++;
    return layers[at]!.rid;
  }

  /** A receiver report's fraction lost (0–1). Answers whether the cap moved. */
  onLoss(fraction: number, now: number, layerCount: number): boolean {
    if (fraction > LOSS_HIGH) {
      this.lastBad = now;
      if (++this.bad < BAD_REPORTS_TO_STEP_DOWN || this.cap >= layerCount - 1) return false;
      this.cap++;
      this.bad = 0;
      this.lastStep = now;
      return true;
    }
    this.bad = 0;
    if (fraction < LOSS_LOW && this.cap > 0 && now - Math.max(this.lastStep, this.lastBad) >= CLEAN_MS_TO_STEP_UP) {
      this.cap--;
      this.lastStep = now;
      return true;
    }
    return false;
  }

  /** A REMB bandwidth estimate (bits per second). */
  onEstimate(bps: number): void {
    this.estimate = bps;
  }
}

const MOD16 = 0x10000;
const MOD32 = 0x100000000;
/** 90 kHz ticks between the last frame of one layer and the first of the next (one frame at 30 fps). */
const SWITCH_GAP_TICKS = 3000;

/**
 * One viewer's video as one continuous RTP stream while the layer under it changes: each layer
 * has its own sequence numbers and timestamps, so packets are renumbered to follow on from the
 * last one sent. A switch happens only at a keyframe of the new layer, so the decoder never sees
 * a frame that refers to a picture of another layer.
 */
export class LayerSwitch {
  current: string | undefined;
  target: string | undefined;
  private seqDelta = 0;
  private tsDelta = 0;
  private lastSeq: number | undefined;
  private lastTs: number | undefined;
  /** Layer changes made (for the tests and the benchmark). */
  switches = 0;

  /** The packet, renumbered, if this viewer gets it now; null if not. Mutates the header. */
  take(rid: string, packet: RtpPacket): RtpPacket | null {
    if (rid !== this.current) {
      // The first layer starts at once (the viewer's keyframe ask follows); a change waits for a keyframe.
      if (rid !== this.target || (this.current !== undefined && !isKeyframeStart(packet))) return null;
      this.begin(rid, packet);
    }
    const h = packet.header;
    h.sequenceNumber = (h.sequenceNumber + this.seqDelta) % MOD16;
    h.timestamp = (h.timestamp + this.tsDelta) % MOD32;
    this.lastSeq = h.sequenceNumber;
    this.lastTs = h.timestamp;
    return packet;
  }

  private begin(rid: string, packet: RtpPacket) {
    const h = packet.header;
    if (this.lastSeq === undefined || this.lastTs === undefined) {
      this.seqDelta = 0;
      this.tsDelta = 0;
    } else {
      this.seqDelta = (this.lastSeq + 1 - h.sequenceNumber + MOD16) % MOD16;
      this.tsDelta = (this.lastTs + SWITCH_GAP_TICKS - h.timestamp + MOD32) % MOD32;
      this.switches++;
    }
    this.current = rid;
  }
}

/** The first packet of a VP8 keyframe: where a viewer can start decoding a layer. */
export function isKeyframeStart(packet: RtpPacket): boolean {
  if (packet.payload.length < 4) return false;
  try {
    const vp8 = werift().Vp8RtpPayload.deSerialize(packet.payload);
    return vp8.isKeyframe && vp8.sBit === 1 && vp8.pid === 0;
  } catch {
    return false;
  }
}
