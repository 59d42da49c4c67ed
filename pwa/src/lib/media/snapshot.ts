import { SNAPSHOT_MAX_BYTES } from '@parley/contract/safety';

const MAX_WIDTH = 640;

/**
 * One frame of a stream as a JPEG (at most 640 px wide and SNAPSHOT_MAX_BYTES): what a report of
 * a video partner carries. Null when the stream has no video frame to give.
 */
export async function jpegOfStream(stream: MediaStream): Promise<Blob | null> {
  if (stream.getVideoTracks().length === 0) return null;
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  try {
    await video.play();
    if (video.readyState < 2) await new Promise((resolve) => video.addEventListener('loadeddata', resolve, { once: true }));
    const scale = Math.min(1, MAX_WIDTH / (video.videoWidth || MAX_WIDTH));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(video.videoWidth * scale));
    canvas.height = Math.max(1, Math.round(video.videoHeight * scale));
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    for (const quality of [0.8, 0.6, 0.4]) {
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
      if (blob && blob.size <= SNAPSHOT_MAX_BYTES) return blob;
    }
    return null;
  } catch {
    return null;
  } finally {
    video.srcObject = null;
  }
}
