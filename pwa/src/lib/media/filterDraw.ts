import type { Mask } from './planarFilter';

/** The filters that draw: `none` sends the camera as it is and draws nothing. */
export type FrameFilter = 'blur' | 'grayscale';

type Ctx2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
type AnyCanvas = HTMLCanvasElement | OffscreenCanvas;

/** The canvases of one frame size: the output, the small one the background is blurred on, the person layer. */
export type FilterCanvases = {
  out: AnyCanvas;
  small: AnyCanvas;
  person: AnyCanvas;
  ctx: Ctx2D;
  smallCtx: Ctx2D;
  personCtx: Ctx2D;
};

/** Blurring a quarter-size frame is ~16x cheaper and looks the same once scaled up. */
export const BLUR_SCALE = 4;
const BLUR_PX = 3;

/**
 * Draws one camera frame with the filter onto `c.out`. Blur: the whole frame blurred, then the
 * person (where the mask says so) sharp over it; without a mask yet the whole picture stays
 * blurred, so the background never shows by accident. The same code runs in the filter's worker
 * and, where the browser has no worker path, on the page.
 */
export function drawFiltered(c: FilterCanvases, frame: CanvasImageSource, filter: FrameFilter, mask: CanvasImageSource | null) {
  const { ctx, small, smallCtx, person, personCtx } = c;
  const { width: w, height: h } = c.out;
  if (filter === 'grayscale') {
    ctx.filter = 'grayscale(1)';
    ctx.drawImage(frame, 0, 0, w, h);
    ctx.filter = 'none';
    return;
  }
  smallCtx.filter = `blur(${BLUR_PX}px)`;
  smallCtx.drawImage(frame, 0, 0, small.width, small.height);
  smallCtx.filter = 'none';
  ctx.drawImage(small, 0, 0, w, h);
  if (!mask) return;
  // The person layer: the frame kept only where the mask says "person", drawn over the blur.
  personCtx.globalCompositeOperation = 'copy';
  personCtx.drawImage(mask, 0, 0, w, h);
  personCtx.globalCompositeOperation = 'source-in';
  personCtx.drawImage(frame, 0, 0, w, h);
  ctx.drawImage(person, 0, 0);
}

/** A person mask's confidence as the alpha of an otherwise white image (drawn with 'source-in' over the frame). */
export function maskImage(m: Mask): ImageData {
  const rgba = new Uint8ClampedArray(m.width * m.height * 4).fill(255);
  for (let i = 0; i < m.alpha.length; i++) rgba[i * 4 + 3] = m.alpha[i]!;
  return new ImageData(rgba, m.width, m.height);
}
