import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from '@playwright/test';
import type * as Compositor from '../src/lib/media/glCompositor';
import type * as Renderer from '../src/lib/media/webglRenderer';

/**
 * The background filter's GPU path (pwa/src/lib/media/glCompositor.ts) in Chromium's WebGL 2 (here
 * SwiftShader, the same shaders a GPU runs): a frame whose top half is a fine red checkerboard and
 * whose bottom half a blue one, with a mask that calls the top half the person.
 */
const here = path.dirname(fileURLToPath(import.meta.url));

type Region = { contrast: number; r: number; g: number; b: number };
type Result = {
  renderer: { renderer: string; software: boolean } | null;
  hardware: boolean;
  out: Record<string, { top: Region; bottom: Region }>;
};

test('the GPU compositor blurs what the mask calls background, keeps the person sharp, the right way up', async ({ page }) => {
  const bundle = await build({
    // The compositor and the renderer check the filter worker asks before taking it.
    stdin: {
      contents: "export * from './glCompositor'; export * from './webglRenderer';",
      resolveDir: path.join(here, '../src/lib/media'),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'GL',
    target: 'es2022',
    logLevel: 'warning',
  });
  await page.goto('about:blank');
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  const result = await page.evaluate(async (): Promise<Result> => {
    const { GlCompositor, webglRenderer, hardwareWebgl } = (window as unknown as { GL: typeof Compositor & typeof Renderer }).GL;
    const [w, h] = [640, 480];
    const src = new OffscreenCanvas(w, h);
    const c = src.getContext('2d')!;
    c.fillStyle = '#000';
    c.fillRect(0, 0, w, h);
    for (let y = 0; y < h; y += 2)
      for (let x = (y / 2) % 2 === 0 ? 0 : 2; x < w; x += 4) {
        c.fillStyle = y < h / 2 ? '#f00' : '#00f';
        c.fillRect(x, y, 2, 2);
      }
    const alpha = new Uint8Array(256 * 144);
    alpha.fill(255, 0, 256 * 72);
    const mask = { alpha, width: 256, height: 144 };
    const gl = new GlCompositor();
    const read = (frame: VideoFrame) => {
      const out = new OffscreenCanvas(w, h);
      const o = out.getContext('2d')!;
      o.drawImage(frame, 0, 0);
      frame.close();
      const region = (y0: number, y1: number): Region => {
        const d = o.getImageData(0, y0, w, y1 - y0).data;
        let contrast = 0;
        const sum = [0, 0, 0];
        const n = (w - 1) * (y1 - y0);
        for (let y = 0; y < y1 - y0; y++)
          for (let x = 0; x < w - 1; x++) {
            const p = (y * w + x) * 4;
            contrast += Math.abs(d[p]! - d[p + 4]!) + Math.abs(d[p + 2]! - d[p + 6]!);
            for (let k = 0; k < 3; k++) sum[k]! += d[p + k]!;
          }
        return { contrast: contrast / n, r: sum[0]! / n, g: sum[1]! / n, b: sum[2]! / n };
      };
      // Away from the line between the halves, where the blur mixes them.
      return { top: region(40, 180), bottom: region(300, 440) };
    };
    const frame = () => new VideoFrame(src, { timestamp: 0 });
    const results: Result['out'] = {};
    for (const [name, filter, m] of [
      ['masked', 'blur', mask],
      ['no mask yet', 'blur', null],
      ['grayscale', 'grayscale', null],
    ] as const) {
      const f = frame();
      results[name] = read(gl.draw(f, filter, m));
      f.close();
    }
    gl.close();
    return { renderer: webglRenderer(), hardware: hardwareWebgl(), out: results };
  });

  // This machine's WebGL is the CPU's: the app would not choose this path here by itself.
  expect(result.renderer?.software).toBe(true);
  expect(result.hardware).toBe(false);
  const { masked, 'no mask yet': unmasked, grayscale } = result.out as Record<string, { top: Region; bottom: Region }>;
  // The person (top) stays sharp and red, the background (bottom) is blurred smooth and still blue.
  expect(masked!.top.r).toBeGreaterThan(masked!.top.b + 40);
  expect(masked!.bottom.b).toBeGreaterThan(masked!.bottom.r + 40);
  expect(masked!.top.contrast).toBeGreaterThan(100);
  expect(masked!.bottom.contrast).toBeLessThan(masked!.top.contrast / 10);
  // Before the first mask everything is background: nothing shows sharp.
  expect(unmasked!.top.contrast).toBeLessThan(masked!.top.contrast / 10);
  // Grayscale: sharp, and no colour left.
  expect(grayscale!.top.contrast).toBeGreaterThan(50);
  expect(Math.abs(grayscale!.top.r - grayscale!.top.b)).toBeLessThan(3);
});
