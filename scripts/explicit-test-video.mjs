/**
 * Makes the test video the nudity guard's e2e spec and benchmark feed to Chromium as a fake
 * camera (`--use-file-for-fake-video-capture`): a picture the shipped nsfwjs model (MobileNetV2,
 * the weights inside the npm package) scores as Porn with a wide margin. No real person: it is
 * grown from a noisy skin tone by gradient ascent towards the Porn class, over a coarse grid of
 * colours (so the video encoder keeps it), each step judged under random shifts, blur, halved
 * colour resolution, colour and contrast changes and noise (so it survives the camera → VP8 →
 * canvas path).
 *
 *   node scripts/explicit-test-video.mjs [--out=pwa/e2e/media/explicit.y4m] [--steps=60]
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { load } from 'nsfwjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const out = path.resolve(root, arg('out', 'pwa/e2e/media/explicit.y4m'));
const STEPS = Number(arg('steps', '60'));
const GRID = 24; // coarse enough for VP8 to keep, fine enough for the model to see shapes
const SIZE = 224;
const WIDTH = 320;
const HEIGHT = 240;
const FRAMES = 2;
const VIEWS = 2; // randomly changed copies judged per step

// Deterministic randomness, so a re-run makes a similar video.
let seed = 23;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

// The WebAssembly backend is fast enough here, but lacks three gradient kernels. The gradients
// with respect to the weights are never used (only the picture changes): zeros. The depthwise
// convolution's gradient with respect to its input runs on the JavaScript backend.
await tf.setBackend('cpu');
const cpu = tf.backend();
await tf.setBackend('wasm');
for (const kernelName of ['Conv2DBackpropFilter', 'DepthwiseConv2dNativeBackpropFilter'])
  tf.registerKernel({
    kernelName,
    backendName: 'wasm',
    kernelFunc: ({ attrs, backend }) => {
      const shape = attrs.filterShape;
      return { dataId: backend.write(new Float32Array(shape.reduce((x, y) => x * y, 1)), shape, 'float32'), shape, dtype: 'float32' };
    },
  });
const onCpu = tf.getKernel('DepthwiseConv2dNativeBackpropInput', 'cpu');
tf.registerKernel({
  kernelName: 'DepthwiseConv2dNativeBackpropInput',
  backendName: 'wasm',
  kernelFunc: ({ inputs, attrs, backend }) => {
    const copied = Object.fromEntries(
      Object.entries(inputs).map(([k, t]) => [
        k,
        { dataId: cpu.write(backend.readSync(t.dataId), t.shape, t.dtype), shape: t.shape, dtype: t.dtype },
      ]),
    );
    const r = onCpu.kernelFunc({ inputs: copied, attrs, backend: cpu });
    const values = cpu.readSync(r.dataId);
    for (const t of [...Object.values(copied), r]) cpu.disposeData(t.dataId);
    return { dataId: backend.write(values, r.shape, r.dtype), shape: r.shape, dtype: r.dtype };
  },
});

const nsfw = await load('MobileNetV2');
const model = nsfw.model;
const CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'];
const PORN = CLASSES.indexOf('Porn');

/** Grid parameters [n, GRID, GRID, 3] → 224×224 pictures in [0, 1]. */
const render = (param) => tf.sigmoid(tf.image.resizeBilinear(param, [SIZE, SIZE], true));

const blurKernel = tf.tidy(() => {
  const k = tf
    .tensor2d([
      [1, 2, 1],
      [2, 4, 2],
      [1, 2, 1],
    ])
    .div(16);
  return tf.stack([k, k, k], 2).expandDims(3);
});

/** What the camera, the encoder and the canvas may do to one picture [1, 224, 224, 3]. */
function changed(image) {
  const dx = Math.floor(rand() * 17) - 8;
  const dy = Math.floor(rand() * 17) - 8;
  let x = image
    .pad(
      [
        [0, 0],
        [8, 8],
        [8, 8],
        [0, 0],
      ],
      0.5,
    )
    .slice([0, 8 + dy, 8 + dx, 0], [1, SIZE, SIZE, 3]);
  for (let i = Math.floor(rand() * 3); i > 0; i--) x = tf.depthwiseConv2d(x, blurKernel, 1, 'same');
  // Scaled down and back up, as the call's resolution and the guard's copy may be.
  const small = 96 + Math.floor(rand() * 128);
  x = tf.image.resizeBilinear(tf.image.resizeBilinear(x, [small, small]), [SIZE, SIZE]);
  // Halved colour resolution (4:2:0): the colour is averaged over 2×2 blocks, the brightness kept.
  const luma = x.mul(tf.tensor1d([0.299, 0.587, 0.114])).sum(3, true);
  const colour = tf.image.resizeBilinear(tf.avgPool(x.sub(luma), 2, 2, 'valid'), [SIZE, SIZE]);
  x = colour.add(luma);
  const gain = tf.tensor1d([0, 1, 2].map(() => 0.9 + rand() * 0.2));
  const contrast = 0.85 + rand() * 0.3;
  x = x
    .mul(gain)
    .sub(0.5)
    .mul(contrast)
    .add(0.5 + (rand() - 0.5) * 0.08);
  return x.add(tf.randomNormal(x.shape, 0, 0.02)).clipByValue(0, 1);
}

// Start: a warm skin tone with noise.
const skin = [0.88, 0.67, 0.55].map((c) => Math.log(c / (1 - c)));
const param = tf.variable(
  tf.tidy(() =>
    tf
      .tensor1d(skin)
      .reshape([1, 1, 1, 3])
      .tile([1, GRID, GRID, 1])
      .add(tf.randomNormal([1, GRID, GRID, 3], 0, 0.3, 'float32', 7)),
  ),
);
const optimizer = tf.train.adam(0.05);
const started = Date.now();
let sure = 0;
for (let step = 1; step <= STEPS; step++) {
  let lowest = 1;
  const loss = optimizer.minimize(
    () => {
      const image = render(param);
      const porn = model.predict(tf.concat(Array.from({ length: VIEWS }, () => changed(image)))).slice([0, PORN], [VIEWS, 1]);
      lowest = Math.min(...porn.dataSync());
      // The model ends in a softmax: maximise log P(Porn) over the changed copies.
      return tf.log(porn.add(1e-6)).mean().neg();
      // Only the picture changes, never the model's weights.
    },
    true,
    [param],
  );
  loss.dispose();
  console.log(
    `step ${step}: lowest Porn score of the changed copies ${lowest.toFixed(3)} (${Math.round((Date.now() - started) / 1000)} s)`,
  );
  sure = lowest > 0.97 ? sure + 1 : 0;
  if (sure >= 8) break;
}

// The picture, stretched to the video's 4:3 frame (the guard squashes it back to a square).
const rgb = tf.tidy(() => tf.image.resizeBilinear(render(param), [HEIGHT, WIDTH], true).squeeze().mul(255).round().clipByValue(0, 255));
const pixels = rgb.dataSync();

// RGB → I420 (BT.601, limited range), as a Y4M file Chromium's fake camera loops over.
const ySize = WIDTH * HEIGHT;
const frame = new Uint8Array(ySize * 1.5);
const at = (x, y, c) => pixels[(y * WIDTH + x) * 3 + c] / 255;
for (let y = 0; y < HEIGHT; y++)
  for (let x = 0; x < WIDTH; x++) {
    const [r, g, b] = [at(x, y, 0), at(x, y, 1), at(x, y, 2)];
    frame[y * WIDTH + x] = Math.round(16 + 65.481 * r + 128.553 * g + 24.966 * b);
  }
for (let y = 0; y < HEIGHT / 2; y++)
  for (let x = 0; x < WIDTH / 2; x++) {
    let r = 0,
      g = 0,
      b = 0;
    for (const [ox, oy] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]) {
      r += at(2 * x + ox, 2 * y + oy, 0) / 4;
      g += at(2 * x + ox, 2 * y + oy, 1) / 4;
      b += at(2 * x + ox, 2 * y + oy, 2) / 4;
    }
    const i = y * (WIDTH / 2) + x;
    frame[ySize + i] = Math.round(128 - 37.797 * r - 74.203 * g + 112 * b);
    frame[ySize * 1.25 + i] = Math.round(128 + 112 * r - 93.786 * g - 18.214 * b);
  }
const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F30:1 Ip A1:1 C420jpeg\n`);
const parts = [header];
for (let f = 0; f < FRAMES; f++) parts.push(Buffer.from('FRAME\n'), Buffer.from(frame));
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, Buffer.concat(parts));

// Check what the browser will see: the frame decoded back from I420 and squashed to 224×224.
const decoded = new Float32Array(ySize * 3);
for (let y = 0; y < HEIGHT; y++)
  for (let x = 0; x < WIDTH; x++) {
    const Y = (frame[y * WIDTH + x] - 16) / 219;
    const ci = (y >> 1) * (WIDTH / 2) + (x >> 1);
    const cb = (frame[ySize + ci] - 128) / 224;
    const cr = (frame[ySize * 1.25 + ci] - 128) / 224;
    decoded[(y * WIDTH + x) * 3] = Y + 1.402 * cr;
    decoded[(y * WIDTH + x) * 3 + 1] = Y - 0.344136 * cb - 0.714136 * cr;
    decoded[(y * WIDTH + x) * 3 + 2] = Y + 1.772 * cb;
  }
// Plain, and under eight random changes: the lowest Porn + Hentai score must still be high.
const views = tf.tidy(() => {
  const frame224 = tf.image.resizeBilinear(tf.tensor3d(decoded, [HEIGHT, WIDTH, 3]).clipByValue(0, 1), [SIZE, SIZE], true).expandDims(0);
  const all = tf.concat([frame224, ...Array.from({ length: 8 }, () => changed(frame224))]);
  return model.predict(all).arraySync();
});
const explicit = views.map((s) => s[PORN] + s[1]);
console.log(
  `wrote ${path.relative(root, out)}: as decoded, ${CLASSES.map((c, i) => `${c} ${views[0][i].toFixed(3)}`).join(', ')}; ` +
    `Porn + Hentai under random changes, lowest ${Math.min(...explicit).toFixed(3)}`,
);
if (Math.min(...explicit) < 0.9) {
  console.error('the video is not explicit enough to the model; run with more --steps');
  process.exit(1);
}
