import { BackgroundFilterPipeline, type BackgroundVideoFilter, type FilterNotice, type FilterStats } from './backgroundFilter';
import { audioConstraints, mediaNotice, videoConstraints, type MediaNotice } from './devices';

export type TrackKind = 'audio' | 'video';
export type OpenResult = { video: MediaNotice | null; audio: MediaNotice | null };

type GetUserMedia = (constraints: MediaStreamConstraints) => Promise<MediaStream>;

/**
 * The user's own camera and microphone for a video chat: the raw tracks, the background filter
 * and `outgoing`, the one stream the preview shows and the call sends. When the track to send
 * changes (device switch, filter to or from `none`) listeners get the new track so a running call
 * can `replaceTrack` it without renegotiating.
 */
export class LocalMedia {
  readonly outgoing: MediaStream;
  camera: MediaStreamTrack | null = null;
  microphone: MediaStreamTrack | null = null;
  private pipeline: BackgroundFilterPipeline | null = null;
  private filter: BackgroundVideoFilter = 'none';
  private muted = false;
  private cameraOff = false;
  private closed = false;
  private readonly listeners = new Set<(kind: TrackKind, track: MediaStreamTrack) => void>();

  constructor(private readonly opts: { getUserMedia?: GetUserMedia; onNotice?: (n: FilterNotice) => void } = {}) {
    this.outgoing = new MediaStream();
  }

  private get gum(): GetUserMedia {
    return this.opts.getUserMedia ?? ((c) => navigator.mediaDevices.getUserMedia(c));
  }

  /** Opens camera and microphone; when one fails the other is still opened and the failure is described. */
  async open(cameraId: string, microphoneId: string, filter: BackgroundVideoFilter): Promise<OpenResult> {
    this.filter = filter;
    if (!navigator.mediaDevices?.getUserMedia && !this.opts.getUserMedia) {
      const notice = mediaNotice(new TypeError('no mediaDevices'));
      return { video: notice, audio: notice };
    }
    const result: OpenResult = { video: null, audio: null };
    try {
      const stream = await this.gum({ video: videoConstraints(cameraId), audio: audioConstraints(microphoneId) });
      this.adopt(stream);
    } catch (both) {
      // Find out which device is the problem and keep the other one.
      const [video, audio] = await Promise.allSettled([
        this.gum({ video: videoConstraints(cameraId) }),
        this.gum({ audio: audioConstraints(microphoneId) }),
      ]);
      if (video.status === 'fulfilled') this.adopt(video.value);
      else result.video = mediaNotice(video.reason ?? both, 'camera');
      if (audio.status === 'fulfilled') this.adopt(audio.value);
      else result.audio = mediaNotice(audio.reason ?? both, 'microphone');
    }
    return result;
  }

  private adopt(stream: MediaStream) {
    if (this.closed) {
      stream.getTracks().forEach((t) => t.stop());
      return;
    }
    const [video] = stream.getVideoTracks();
    const [audio] = stream.getAudioTracks();
    if (video) this.setCamera(video);
    if (audio) this.setMicrophone(audio);
  }

  private setCamera(track: MediaStreamTrack) {
    this.camera?.stop();
    this.camera = track;
    track.enabled = !this.cameraOff;
    if (!this.pipeline) {
      this.pipeline = new BackgroundFilterPipeline(track, { onNotice: this.opts.onNotice });
      this.pipeline.setFilter(this.filter);
    } else {
      this.pipeline.setSource(track);
    }
    this.put('video', this.pipeline.outputTrack);
  }

  private setMicrophone(track: MediaStreamTrack) {
    this.microphone?.stop();
    this.microphone = track;
    track.enabled = !this.muted;
    this.put('audio', track);
  }

  /** Puts `track` into the outgoing stream in place of the one of its kind, and tells the call. */
  private put(kind: TrackKind, track: MediaStreamTrack) {
    const current = kind === 'video' ? this.outgoing.getVideoTracks() : this.outgoing.getAudioTracks();
    if (current.length === 1 && current[0] === track) return;
    current.forEach((t) => this.outgoing.removeTrack(t));
    this.outgoing.addTrack(track);
    this.listeners.forEach((l) => l(kind, track));
  }

  onTrackChange(listener: (kind: TrackKind, track: MediaStreamTrack) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async switchCamera(deviceId: string): Promise<MediaNotice | null> {
    try {
      // Release the old camera first: many laptops cannot open two cameras at once.
      this.camera?.stop();
      const stream = await this.gum({ video: videoConstraints(deviceId) });
      this.adopt(stream);
      return null;
    } catch (e) {
      return mediaNotice(e, 'camera');
    }
  }

  async switchMicrophone(deviceId: string): Promise<MediaNotice | null> {
    try {
      const stream = await this.gum({ audio: audioConstraints(deviceId) });
      this.adopt(stream);
      return null;
    } catch (e) {
      return mediaNotice(e, 'microphone');
    }
  }

  setFilter(filter: BackgroundVideoFilter): void {
    this.filter = filter;
    if (!this.pipeline) return;
    this.put('video', this.pipeline.setFilter(filter));
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    if (this.microphone) this.microphone.enabled = !muted;
  }

  /** Camera off sends black frames (the track stays, so turning it back on is instant and needs no renegotiation). */
  setCameraOff(off: boolean): void {
    this.cameraOff = off;
    if (this.camera) this.camera.enabled = !off;
  }

  filterStats(): FilterStats | null {
    return this.pipeline?.stats() ?? null;
  }

  /** Stops every track (the camera light goes off) and the filter. */
  close(): void {
    this.closed = true;
    this.pipeline?.stop();
    this.pipeline = null;
    this.camera?.stop();
    this.microphone?.stop();
    this.outgoing.getTracks().forEach((t) => {
      t.stop();
      this.outgoing.removeTrack(t);
    });
    this.camera = null;
    this.microphone = null;
    this.listeners.clear();
  }
}
