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
  segment(image: HTMLVideoElement | HTMLCanvasElement): Promise<CanvasImageSource | null>;
  close(): Promise<void>;
};

export async function createPersonSegmenter(): Promise<PersonSegmenter> {
  const Ctor = await loadScript();
  const model = new Ctor({ locateFile: (file) => `${MEDIAPIPE_BASE}${file}` });
  // 1 = the landscape model: faster, made for video calls.
  model.setOptions({ modelSelection: 1, selfieMode: false });
  let latest: CanvasImageSource | null = null;
  model.onResults((results: Results) => {
    latest = results.segmentationMask as CanvasImageSource;
  });
  await model.initialize();
  return {
    async segment(image) {
      await model.send({ image });
      return latest;
    },
    close: () => model.close(),
  };
}
