/**
 * The background filter drawn in the camera's own pixel format. A camera frame is YUV (I420 or
 * NV12); drawing it on a canvas converts it to RGB, and sending the canvas converts it back for the
 * encoder, two full-frame conversions per frame plus the canvas's compositing: about 20 ms a frame
 * on a phone-class CPU, most of a core at 30 fps. Here the frame is copied out once, blurred and
 * composited plane by plane in place (luma, then the two chroma planes), and handed to the encoder
 * in the format it came in. Grayscale is the chroma planes set to neutral.
 *
 * Blur: each plane is shrunk (box average), blurred small (box blur, twice each way: close to a
 * Gaussian), and scaled back up bilinearly where the person mask says background. The mask is
 * scaled to each plane's size once per mask, not per frame, since the model runs slower than the
 * camera.
 */

/** Formats filtered here; any other (RGB frames, GPU frames without a format) goes through a canvas. */
export function planarFormat(format: string | null): format is 'I420' | 'I420A' | 'NV12' {
  return format === 'I420' || format === 'I420A' || format === 'NV12';
}

/** A plane's samples in the frame's buffer: `step` 2 for NV12's interleaved chroma. */
export type PlaneView = { offset: number; stride: number; width: number; height: number; step: number };

/** The person mask: one byte per point (255 = person), `width` × `height`. */
export type Mask = { alpha: Uint8Array; width: number; height: number };

/** Luma shrinks by this for 640-wide frames (a 160-wide background); larger frames shrink more. */
const SMALL_WIDTH = 160;
/** Box blur radius on the shrunk plane, applied twice each way (σ ≈ 2.8 small pixels, ≈ 11 at 640 wide). */
const BLUR_RADIUS = 3;

/** What one plane keeps between frames: its shrunk copy and its scaled mask. */
export class PlaneBlur {
  readonly smallWidth: number;
  readonly smallHeight: number;
  private readonly small: Float32Array;
  private readonly tmp: Float32Array;
  /** The blurred small plane scaled up across (each small row, full width): rows then mix by pairs. */
  private readonly wide: Float32Array;
  private readonly x0: Int32Array;
  private readonly x1: Int32Array;
  private readonly wx: Float32Array;
  private readonly y0: Int32Array;
  private readonly y1: Int32Array;
  private readonly wy: Float32Array;
  private mask: Uint8Array | null = null;
  private maskFrom: Mask | null = null;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly factor: number,
  ) {
    this.smallWidth = Math.max(1, Math.ceil(width / factor));
    this.smallHeight = Math.max(1, Math.ceil(height / factor));
    const n = this.smallWidth * this.smallHeight;
    this.small = new Float32Array(n);
    this.tmp = new Float32Array(n);
    this.wide = new Float32Array(this.smallHeight * width);
    [this.x0, this.x1, this.wx] = bilinearTaps(width, this.smallWidth, factor);
    [this.y0, this.y1, this.wy] = bilinearTaps(height, this.smallHeight, factor);
  }

  /** The mask at this plane's size (bilinear), made again only when the mask changes. */
  private scaledMask(m: Mask): Uint8Array {
    if (this.maskFrom === m && this.mask) return this.mask;
    const out = (this.mask ??= new Uint8Array(this.width * this.height));
    const { alpha, width: mw, height: mh } = m;
    const sx = mw / this.width;
    const sy = mh / this.height;
    for (let y = 0; y < this.height; y++) {
      const fy = Math.min(mh - 1, Math.max(0, (y + 0.5) * sy - 0.5));
      const r0 = Math.floor(fy) * mw;
      const r1 = Math.min(mh - 1, Math.floor(fy) + 1) * mw;
      const wy = fy - Math.floor(fy);
      const row = y * this.width;
      for (let x = 0; x < this.width; x++) {
        const fx = Math.min(mw - 1, Math.max(0, (x + 0.5) * sx - 0.5));
        const c0 = Math.floor(fx);
        const c1 = Math.min(mw - 1, c0 + 1);
        const wx = fx - c0;
        const top = alpha[r0 + c0]! + (alpha[r0 + c1]! - alpha[r0 + c0]!) * wx;
        const bottom = alpha[r1 + c0]! + (alpha[r1 + c1]! - alpha[r1 + c0]!) * wx;
        out[row + x] = top + (bottom - top) * wy + 0.5;
      }
    }
    this.maskFrom = m;
    return out;
  }

  /**
   * Blurs the plane `p` of `data` where `mask` says background, in place; without a mask, all of
   * it (the background never shows before the first mask).
   */
  blur(data: Uint8ClampedArray, p: PlaneView, mask: Mask | null): void {
    const { small, tmp, wide, smallWidth: sw, smallHeight: sh, factor: f, width: pw, height: ph } = this;
    const { offset, stride, step } = p;
    // Shrink: each small sample the mean of its f × f block (edge blocks of what is there).
    small.fill(0);
    for (let y = 0; y < ph; y++) {
      const row = offset + y * stride;
      const srow = ((y / f) | 0) * sw;
      for (let x = 0, sx = 0, k = 0; x < pw; x++) {
        small[srow + sx] = small[srow + sx]! + data[row + x * step]!;
        if (++k === f) {
          k = 0;
          sx++;
        }
      }
    }
    for (let sy = 0; sy < sh; sy++) {
      const rows = Math.min(f, ph - sy * f);
      for (let sx = 0; sx < sw; sx++) small[sy * sw + sx] = small[sy * sw + sx]! / (rows * Math.min(f, pw - sx * f));
    }
    for (let pass = 0; pass < 2; pass++) {
      boxRows(small, tmp, sw, sh, BLUR_RADIUS);
      boxColumns(tmp, small, sw, sh, BLUR_RADIUS);
    }
    // Across: every small row at full width.
    const { x0, x1, wx } = this;
    for (let sy = 0; sy < sh; sy++) {
      const s = sy * sw;
      const w = sy * pw;
      for (let x = 0; x < pw; x++) {
        const a = small[s + x0[x]!]!;
        wide[w + x] = a + (small[s + x1[x]!]! - a) * wx[x]!;
      }
    }
    // Down, mixing two wide rows, and over the frame where it is background.
    const m = mask ? this.scaledMask(mask) : null;
    const { y0, y1, wy } = this;
    for (let y = 0; y < ph; y++) {
      const row = offset + y * stride;
      const a = y0[y]! * pw;
      const b = y1[y]! * pw;
      const t = wy[y]!;
      const mrow = y * pw;
      for (let x = 0; x < pw; x++) {
        const keep = m ? m[mrow + x]! : 0;
        if (keep === 255) continue;
        const top = wide[a + x]!;
        const blurred = top + (wide[b + x]! - top) * t;
        const i = row + x * step;
        data[i] = keep === 0 ? blurred : blurred + (data[i]! - blurred) * (keep / 255);
      }
    }
  }
}

/** For each of `n` full-size positions: the two small samples around it and the weight of the second. */
function bilinearTaps(n: number, small: number, factor: number): [Int32Array, Int32Array, Float32Array] {
  const i0 = new Int32Array(n);
  const i1 = new Int32Array(n);
  const w = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const at = Math.min(small - 1, Math.max(0, (i + 0.5) / factor - 0.5));
    i0[i] = Math.floor(at);
    i1[i] = Math.min(small - 1, i0[i]! + 1);
    w[i] = at - i0[i]!;
  }
  return [i0, i1, w];
}

/** Box blur along rows, edges repeated: a running sum, so its cost does not grow with the radius. */
function boxRows(src: Float32Array, dst: Float32Array, w: number, h: number, r: number) {
  const norm = 1 / (2 * r + 1);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let acc = 0;
    for (let k = -r; k <= r; k++) acc += src[row + Math.min(w - 1, Math.max(0, k))]!;
    for (let x = 0; x < w; x++) {
      dst[row + x] = acc * norm;
      acc += src[row + Math.min(w - 1, x + r + 1)]! - src[row + Math.max(0, x - r)]!;
    }
  }
}

function boxColumns(src: Float32Array, dst: Float32Array, w: number, h: number, r: number) {
  const norm = 1 / (2 * r + 1);
  for (let x = 0; x < w; x++) {
    let acc = 0;
    for (let k = -r; k <= r; k++) acc += src[Math.min(h - 1, Math.max(0, k)) * w + x]!;
    for (let y = 0; y < h; y++) {
      dst[y * w + x] = acc * norm;
      acc += src[Math.min(h - 1, y + r + 1) * w + x]! - src[Math.max(0, y - r) * w + x]!;
    }
  }
}

/** The planes of a frame of `format`, `width` × `height`, as `copyTo` laid them out. */
export function planesOf(
  format: 'I420' | 'I420A' | 'NV12',
  width: number,
  height: number,
  layout: ReadonlyArray<{ offset: number; stride: number }>,
): { luma: PlaneView; chroma: PlaneView[] } {
  const cw = (width + 1) >> 1;
  const ch = (height + 1) >> 1;
  const luma = { offset: layout[0]!.offset, stride: layout[0]!.stride, width, height, step: 1 };
  if (format === 'NV12') {
    const uv = layout[1]!;
    return {
      luma,
      chroma: [
        { offset: uv.offset, stride: uv.stride, width: cw, height: ch, step: 2 },
        { offset: uv.offset + 1, stride: uv.stride, width: cw, height: ch, step: 2 },
      ],
    };
  }
  return {
    luma,
    chroma: [1, 2].map((i) => ({ offset: layout[i]!.offset, stride: layout[i]!.stride, width: cw, height: ch, step: 1 })),
  };
}

/** Neutral chroma: the picture without colour. */
export function grayPlane(data: Uint8ClampedArray, p: PlaneView): void {
  for (let y = 0; y < p.height; y++) {
    const row = p.offset + y * p.stride;
    if (p.step === 1) data.fill(128, row, row + p.width);
    else for (let x = 0; x < p.width; x++) data[row + x * p.step] = 128;
  }
}

/** How much a plane of this width shrinks before it is blurred (luma; chroma at half size shrinks half as much). */
export function lumaFactor(width: number): number {
  return Math.max(2, 2 * Math.round(width / (2 * SMALL_WIDTH)));
}

/**
 * Filters camera frames in their own format. One per frame size and format; `filter` answers the
 * new frame, or null when the frame is not one it can read (the caller then draws it on a canvas).
 */
export class PlanarFilter {
  private buffer: Uint8ClampedArray | null = null;
  private planes: PlaneBlur[] = [];
  private shape = '';

  async filter(frame: VideoFrame, kind: 'blur' | 'grayscale', mask: Mask | null): Promise<VideoFrame | null> {
    const format = frame.format;
    if (!planarFormat(format)) return null;
    const { width, height } = frame.visibleRect ?? { width: frame.codedWidth, height: frame.codedHeight };
    const size = frame.allocationSize();
    if (!this.buffer || this.buffer.length !== size) this.buffer = new Uint8ClampedArray(size);
    const data = this.buffer;
    const layout = await frame.copyTo(data);
    const { luma, chroma } = planesOf(format, width, height, layout);
    if (kind === 'grayscale') for (const p of chroma) grayPlane(data, p);
    else {
      const shape = `${format} ${width}x${height}`;
      if (shape !== this.shape) {
        const f = lumaFactor(width);
        this.planes = [luma, ...chroma].map((p, i) => new PlaneBlur(p.width, p.height, i === 0 ? f : f / 2));
        this.shape = shape;
      }
      [luma, ...chroma].forEach((p, i) => this.planes[i]!.blur(data, p, mask));
    }
    return new VideoFrame(data, {
      format,
      codedWidth: width,
      codedHeight: height,
      displayWidth: frame.displayWidth,
      displayHeight: frame.displayHeight,
      timestamp: frame.timestamp,
      ...(frame.duration ? { duration: frame.duration } : {}),
      layout,
      colorSpace: frame.colorSpace.toJSON(),
    });
  }
}
