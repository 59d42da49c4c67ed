import type { Results, SelfieSegmentation as SelfieSegmentationType } from '@mediapipe/selfie_segmentation';

/**
 * MediaPipe's person segmentation, loaded from Parley's own origin (/mediapipe/, copied there by
 * the build): no third-party CDN sees our users, and the CSP stays 'self' + 'wasm-unsafe-eval'.
 * The package is a closure-compiled script that defines a global, so it is loaded as a script.
 */
export const MEDIAPIPE_BASE = '/mediapipe/';

type SelfieSegmentationCtor = new (config: { locateFile: (file: string) => string }) => SelfieSegmentationType;

let loading: Promise<SelfieSegmentationCtor> | null = null;

function loadScript(): Promise<SelfieSegmentationCtor> {
  loading ??= new Promise<SelfieSegmentationCtor>((resolve, reject) => {
    const existing = (window as unknown as { SelfieSegmentation?: SelfieSegmentationCtor }).SelfieSegmentation;
    if (existing) return resolve(existing);
    const script = document.createElement('script');
    script.src = `${MEDIAPIPE_BASE}selfie_segmentation.js`;
    script.async = true;
    script.onload = () => {
      const ctor = (window as unknown as { SelfieSegmentation?: SelfieSegmentationCtor }).SelfieSegmentation;
      if (ctor) resolve(ctor);
      else reject(new Error('Person segmentation did not load'));
    };
    script.onerror = () => reject(new Error('Person segmentation could not be downloaded'));
    document.head.appendChild(script);
  }).catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
}

export type PersonSegmenter = {
  /** Segments one frame; resolves with the mask (white = person) once the model has run. */
  segment(image: CanvasImageSource): Promise<CanvasImageSource | null>;
  close(): Promise<void>;
};

/** The landscape model's input size: frames are scaled to it before upload, which is most of the cost. */
export const MODEL_INPUT = { width: 256, height: 144 };

/**
 * Whether WebGL here is a software renderer (SwiftShader, llvmpipe): then the model's CPU
 * inference (XNNPACK) is several times faster than its GPU path.
 */
export function softwareWebGl(): boolean {
  try {
    const gl = document.createElement('canvas').getContext('webgl');
    if (!gl) return true;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|software/i.test(renderer);
  } catch {
    return true;
  }
}

export async function createPersonSegmenter(): Promise<PersonSegmenter> {
  const Ctor = await loadScript();
  const model = new Ctor({ locateFile: (file) => `${MEDIAPIPE_BASE}${file}` });
  // 1 = the landscape model: faster, made for video calls.
  model.setOptions({ modelSelection: 1, selfieMode: false, useCpuInference: softwareWebGl() } as Parameters<
    SelfieSegmentationType['setOptions']
  >[0]);
  let latest: CanvasImageSource | null = null;
  model.onResults((results: Results) => {
    latest = results.segmentationMask as CanvasImageSource;
  });
  await model.initialize();
  const input = document.createElement('canvas');
  input.width = MODEL_INPUT.width;
  input.height = MODEL_INPUT.height;
  const inputCtx = input.getContext('2d', { alpha: false })!;
  return {
    async segment(image) {
      // The mask covers the whole frame, so stretching both ways maps it back exactly.
      inputCtx.drawImage(image, 0, 0, input.width, input.height);
      await model.send({ image: input });
      return latest;
    },
    close: () => model.close(),
  };
}
