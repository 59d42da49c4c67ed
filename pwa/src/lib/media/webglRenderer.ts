/** Renderer strings of WebGL done on the CPU. */
const SOFTWARE = /swiftshader|llvmpipe|softpipe|software|basic render/i;

/**
 * What WebGL 2 runs on here, or null without it; `software` when the "GPU" is the CPU. A software
 * renderer does a GPU's work several times slower than the CPU paths that the blur's model and
 * compositor fall back to, so both ask this before taking the GPU.
 */
export function webglRenderer(): { renderer: string; software: boolean } | null {
  if (typeof OffscreenCanvas === 'undefined') return null;
  try {
    const gl = new OffscreenCanvas(1, 1).getContext('webgl2');
    if (!gl) return null;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return { renderer, software: SOFTWARE.test(renderer) };
  } catch {
    return null;
  }
}

/** Whether WebGL 2 runs on real graphics hardware here. */
export const hardwareWebgl = (): boolean => webglRenderer()?.software === false;
