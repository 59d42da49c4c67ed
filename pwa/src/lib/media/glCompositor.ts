/**
 * The background filter on the GPU (WebGL 2 on an OffscreenCanvas): the camera frame is uploaded
 * as a texture as it is (a GPU camera frame stays on the GPU), shrunk and blurred in two small
 * passes, and mixed with the sharp frame by the person mask in a last pass; the canvas is the
 * outgoing frame. On a device with a real GPU this leaves the CPU nothing to do per frame but
 * issue a few draw calls. A software renderer (SwiftShader, llvmpipe) would do the same work on
 * the CPU more slowly than the planar filter does, so it is used only where the GPU is real
 * (`hardwareWebgl` in webglRenderer.ts), or when asked for (tests, the bench).
 */
import type { FrameFilter } from './filterDraw';
import type { Mask } from './planarFilter';

/** The blurred background is this much smaller than the frame each way (as on the other paths). */
const SHRINK = 4;
/** Gaussian weights for taps 0..4 small pixels out (σ ≈ 2 small pixels, ≈ 8 at full size), summing to 1 both ways. */
const WEIGHTS = [0.2042, 0.1802, 0.1238, 0.0663, 0.0276];

const VERTEX = `#version 300 es
out vec2 uv;
// One triangle over the whole target, from the vertex index alone: no buffers.
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  uv = p;
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}`;

const BLUR = `#version 300 es
precision mediump float;
in vec2 uv;
out vec4 color;
uniform sampler2D src;
uniform vec2 step;
const float W[5] = float[5](${WEIGHTS.map((w) => w.toFixed(4)).join(', ')});
void main() {
  vec3 sum = texture(src, uv).rgb * W[0];
  for (int i = 1; i < 5; i++) {
    vec2 d = step * float(i);
    sum += (texture(src, uv + d).rgb + texture(src, uv - d).rgb) * W[i];
  }
  color = vec4(sum, 1.0);
}`;

// Textures hold the frame's first row at t = 0; the canvas's first row is at the top (y = 1).
const MIX = `#version 300 es
precision mediump float;
in vec2 uv;
out vec4 color;
uniform sampler2D frame;
uniform sampler2D blurred;
uniform sampler2D mask;
uniform int mode;
void main() {
  vec2 t = vec2(uv.x, 1.0 - uv.y);
  vec3 sharp = texture(frame, t).rgb;
  if (mode == 2) {
    color = vec4(vec3(dot(sharp, vec3(0.299, 0.587, 0.114))), 1.0);
    return;
  }
  float person = mode == 1 ? texture(mask, t).r : 0.0;
  color = vec4(mix(texture(blurred, t).rgb, sharp, person), 1.0);
}`;

type Target = { fb: WebGLFramebuffer; tex: WebGLTexture; width: number; height: number };

export class GlCompositor {
  readonly canvas: OffscreenCanvas;
  private readonly gl: WebGL2RenderingContext;
  private readonly blur: WebGLProgram;
  private readonly mix: WebGLProgram;
  /** Set for every frame: looked up once. */
  private readonly mode: WebGLUniformLocation | null;
  private readonly step: WebGLUniformLocation | null;
  private readonly frameTex: WebGLTexture;
  private readonly maskTex: WebGLTexture;
  private targets: [Target, Target] | null = null;
  private maskShown: Mask | null = null;
  private lost = false;

  constructor() {
    this.canvas = new OffscreenCanvas(1, 1);
    const gl = this.canvas.getContext('webgl2', {
      alpha: false,
      antialias: false,
      depth: false,
      stencil: false,
      preserveDrawingBuffer: true,
    });
    if (!gl) throw new Error('WebGL 2 is not available');
    this.gl = gl;
    this.canvas.addEventListener('webglcontextlost', () => (this.lost = true));
    this.blur = program(gl, VERTEX, BLUR);
    this.mix = program(gl, VERTEX, MIX);
    this.frameTex = texture(gl);
    this.maskTex = texture(gl);
    gl.useProgram(this.mix);
    gl.uniform1i(gl.getUniformLocation(this.mix, 'frame'), 0);
    gl.uniform1i(gl.getUniformLocation(this.mix, 'blurred'), 1);
    gl.uniform1i(gl.getUniformLocation(this.mix, 'mask'), 2);
    gl.useProgram(this.blur);
    gl.uniform1i(gl.getUniformLocation(this.blur, 'src'), 0);
    this.mode = gl.getUniformLocation(this.mix, 'mode');
    this.step = gl.getUniformLocation(this.blur, 'step');
  }

  /** The filtered frame, with the source's timestamp and duration; throws once the GPU context is lost. */
  draw(frame: VideoFrame, filter: FrameFilter, mask: Mask | null): VideoFrame {
    const gl = this.gl;
    if (this.lost || gl.isContextLost()) throw new Error('the WebGL context was lost');
    const width = frame.displayWidth;
    const height = frame.displayHeight;
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.frameTex);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, frame);
    if (filter === 'blur') this.blurInto(width, height);
    if (filter === 'blur' && mask) this.showMask(mask);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, width, height);
    gl.useProgram(this.mix);
    gl.uniform1i(this.mode, filter === 'grayscale' ? 2 : mask ? 1 : 0);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, this.targets?.[1].tex ?? null);
    gl.activeTexture(gl.TEXTURE2);
    gl.bindTexture(gl.TEXTURE_2D, this.maskTex);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.frameTex);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    return new VideoFrame(this.canvas, { timestamp: frame.timestamp, ...(frame.duration ? { duration: frame.duration } : {}) });
  }

  close(): void {
    this.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }

  /** The frame shrunk and blurred across into the first small target, then down into the second. */
  private blurInto(width: number, height: number) {
    const gl = this.gl;
    const [a, b] = this.targetsFor(Math.max(1, Math.round(width / SHRINK)), Math.max(1, Math.round(height / SHRINK)));
    gl.useProgram(this.blur);
    gl.viewport(0, 0, a.width, a.height);
    gl.bindFramebuffer(gl.FRAMEBUFFER, a.fb);
    gl.uniform2f(this.step, 1 / a.width, 0);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.bindFramebuffer(gl.FRAMEBUFFER, b.fb);
    gl.bindTexture(gl.TEXTURE_2D, a.tex);
    gl.uniform2f(this.step, 0, 1 / a.height);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }

  /** The latest mask as a one-channel texture, uploaded once per mask, not per frame. */
  private showMask(mask: Mask) {
    if (mask === this.maskShown) return;
    const gl = this.gl;
    gl.activeTexture(gl.TEXTURE2);
    gl.bindTexture(gl.TEXTURE_2D, this.maskTex);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8, mask.width, mask.height, 0, gl.RED, gl.UNSIGNED_BYTE, mask.alpha);
    gl.activeTexture(gl.TEXTURE0);
    this.maskShown = mask;
  }

  private targetsFor(width: number, height: number): [Target, Target] {
    if (this.targets?.[0].width === width && this.targets[0].height === height) return this.targets;
    const gl = this.gl;
    for (const t of this.targets ?? []) {
      gl.deleteFramebuffer(t.fb);
      gl.deleteTexture(t.tex);
    }
    const make = (): Target => {
      const tex = texture(gl);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      const fb = gl.createFramebuffer()!;
      gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
      return { fb, tex, width, height };
    };
    this.targets = [make(), make()];
    // The first pass reads the frame (texture unit 0).
    gl.bindTexture(gl.TEXTURE_2D, this.frameTex);
    return this.targets;
  }
}

/** A texture bound to unit 0's TEXTURE_2D, filtered linearly (scaling up is interpolation) and clamped at the edges. */
function texture(gl: WebGL2RenderingContext): WebGLTexture {
  const tex = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  return tex;
}

function program(gl: WebGL2RenderingContext, vertex: string, fragment: string): WebGLProgram {
  const p = gl.createProgram()!;
  for (const [type, source] of [
    [gl.VERTEX_SHADER, vertex],
    [gl.FRAGMENT_SHADER, fragment],
  ] as const) {
    const s = gl.createShader(type)!;
    gl.shaderSource(s, source);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`shader: ${gl.getShaderInfoLog(s) ?? 'did not compile'}`);
    gl.attachShader(p, s);
  }
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(`program: ${gl.getProgramInfoLog(p) ?? 'did not link'}`);
  return p;
}
