import { describe, expect, it } from 'vitest';
import { grayPlane, lumaFactor, PlaneBlur, planesOf, type Mask, type PlaneView } from './planarFilter';

const W = 64;
const H = 48;
/** A plane with 8 bytes of row padding, so a filter that ignores the stride shows. */
const STRIDE = W + 8;
const PAD = 7;

function checkerboard(): Uint8ClampedArray {
  const data = new Uint8ClampedArray(STRIDE * H).fill(PAD);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data[y * STRIDE + x] = (x >> 1) % 2 === (y >> 1) % 2 ? 230 : 20;
  return data;
}

const plane: PlaneView = { offset: 0, stride: STRIDE, width: W, height: H, step: 1 };

/** How far neighbouring samples differ on average: a blurred picture has small steps. */
function edges(data: Uint8ClampedArray, x0 = 0, x1 = W): number {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < H; y++)
    for (let x = x0 + 1; x < x1; x++) {
      sum += Math.abs(data[y * STRIDE + x]! - data[y * STRIDE + x - 1]!);
      n++;
    }
  return sum / n;
}

const padding = (data: Uint8ClampedArray) =>
  Array.from({ length: H }, (_, y) => Array.from(data.subarray(y * STRIDE + W, (y + 1) * STRIDE))).flat();

describe('the background filter in the camera’s planes', () => {
  it('without a mask blurs the whole plane, keeping its brightness and its row padding', () => {
    const data = checkerboard();
    const meanBefore = data.reduce((a, v, i) => (i % STRIDE < W ? a + v : a), 0) / (W * H);
    new PlaneBlur(W, H, 4).blur(data, plane, null);
    expect(edges(data)).toBeLessThan(edges(checkerboard()) / 10);
    const meanAfter = data.reduce((a, v, i) => (i % STRIDE < W ? a + v : a), 0) / (W * H);
    expect(Math.abs(meanAfter - meanBefore)).toBeLessThan(3);
    expect(new Set(padding(data))).toEqual(new Set([PAD]));
  });

  it('keeps the person sharp and blurs the background, by the mask', () => {
    // The person on the left half of a mask of another size than the plane (as the model's is).
    const mask: Mask = { width: 32, height: 18, alpha: new Uint8Array(32 * 18) };
    for (let y = 0; y < 18; y++) mask.alpha.fill(255, y * 32, y * 32 + 16);
    const data = checkerboard();
    new PlaneBlur(W, H, 4).blur(data, plane, mask);
    const original = checkerboard();
    // Left of the mask's soft edge: exactly the camera's samples; right of it: blurred.
    for (let y = 0; y < H; y++) expect(data.subarray(y * STRIDE, y * STRIDE + 28)).toEqual(original.subarray(y * STRIDE, y * STRIDE + 28));
    expect(edges(data, 36, W)).toBeLessThan(edges(original, 36, W) / 10);
  });

  it('a uniform picture stays as it is, blurred or not', () => {
    const data = new Uint8ClampedArray(STRIDE * H).fill(93);
    new PlaneBlur(W, H, 4).blur(data, plane, null);
    expect(new Set(data)).toEqual(new Set([93]));
  });

  it('reads NV12’s interleaved chroma, and grayscale neutralises the chroma alone', () => {
    const width = 8;
    const height = 4;
    const layout = [
      { offset: 0, stride: 8 },
      { offset: 32, stride: 8 },
    ];
    const { luma, chroma } = planesOf('NV12', width, height, layout);
    expect(luma).toEqual({ offset: 0, stride: 8, width: 8, height: 4, step: 1 });
    expect(chroma).toEqual([
      { offset: 32, stride: 8, width: 4, height: 2, step: 2 },
      { offset: 33, stride: 8, width: 4, height: 2, step: 2 },
    ]);
    const data = new Uint8ClampedArray(48).fill(200);
    for (const p of chroma) grayPlane(data, p);
    expect(Array.from(data.subarray(0, 32))).toEqual(Array(32).fill(200));
    expect(Array.from(data.subarray(32))).toEqual(Array(16).fill(128));
  });

  it('I420 has two chroma planes of half the size, odd sizes rounded up', () => {
    const { chroma } = planesOf('I420', 641, 481, [
      { offset: 0, stride: 641 },
      { offset: 308_321, stride: 321 },
      { offset: 385_562, stride: 321 },
    ]);
    expect(chroma.map((p) => [p.offset, p.width, p.height, p.step])).toEqual([
      [308_321, 321, 241, 1],
      [385_562, 321, 241, 1],
    ]);
  });

  it('shrinks larger frames more, so the blur looks the same at any camera size', () => {
    expect(lumaFactor(320)).toBe(2);
    expect(lumaFactor(640)).toBe(4);
    expect(lumaFactor(1280)).toBe(8);
    expect(lumaFactor(1920)).toBe(12);
  });
});
