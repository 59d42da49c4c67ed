/** Cameras and microphones: listing, opening, and saying what went wrong in words a person can act on. */

export type MediaDevice = { deviceId: string; label: string };
export type DeviceLists = { cameras: MediaDevice[]; microphones: MediaDevice[] };

export type MediaProblem = 'denied' | 'missing' | 'busy' | 'unsupported' | 'failed';
export type MediaNotice = { problem: MediaProblem; title: string; description: string };

/** The camera the app asks for: enough for a face, light enough to filter at 30 fps on a laptop. */
export const VIDEO_CONSTRAINTS: MediaTrackConstraints = { width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 30 } };
export const AUDIO_CONSTRAINTS: MediaTrackConstraints = { echoCancellation: true, noiseSuppression: true, autoGainControl: true };

export function videoConstraints(deviceId: string): MediaTrackConstraints {
  return deviceId ? { ...VIDEO_CONSTRAINTS, deviceId: { exact: deviceId } } : VIDEO_CONSTRAINTS;
}

export function audioConstraints(deviceId: string): MediaTrackConstraints {
  return deviceId ? { ...AUDIO_CONSTRAINTS, deviceId: { exact: deviceId } } : AUDIO_CONSTRAINTS;
}

/** Labels are empty until the user has allowed a device once; number them so pickers stay usable. */
export function toDeviceLists(devices: MediaDeviceInfo[]): DeviceLists {
  const pick = (kind: MediaDeviceKind, noun: string) =>
    devices.filter((d) => d.kind === kind && d.deviceId).map((d, i) => ({ deviceId: d.deviceId, label: d.label || `${noun} ${i + 1}` }));
  return { cameras: pick('videoinput', 'Camera'), microphones: pick('audioinput', 'Microphone') };
}

export async function listDevices(): Promise<DeviceLists> {
  if (!navigator.mediaDevices?.enumerateDevices) return { cameras: [], microphones: [] };
  return toDeviceLists(await navigator.mediaDevices.enumerateDevices());
}

/** What to tell the user when getUserMedia fails, by the DOMException name. */
export function mediaNotice(
  error: unknown,
  what: 'camera' | 'microphone' | 'camera and microphone' = 'camera and microphone',
): MediaNotice {
  const name =
    error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error)
      ? String((error as { name: unknown }).name)
      : '';
  const It = what === 'camera and microphone' ? 'They' : 'It';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return {
        problem: 'denied',
        title: `Parley may not use your ${what}`,
        description: `Allow the ${what} for this site (the camera icon in the address bar, or your browser's site settings), then press Try again. You can still chat by text.`,
      };
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return {
        problem: 'missing',
        title: `No ${what} found`,
        description: `Connect a ${what === 'microphone' ? 'microphone' : 'camera'} or choose another one in the lists below, then press Try again. You can still chat by text.`,
      };
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return {
        problem: 'busy',
        title: `Your ${what} ${what === 'camera and microphone' ? 'are' : 'is'} busy`,
        description: `${It} may be in use by another app or tab. Close it there, then press Try again. You can still chat by text.`,
      };
    case 'TypeError':
    case 'NotSupportedError':
      return {
        problem: 'unsupported',
        title: 'Video is not available here',
        description:
          'This browser or page cannot use a camera (it needs a secure https address). Try a current Chrome, Firefox or Safari. You can still chat by text.',
      };
    default:
      return {
        problem: 'failed',
        title: `Could not start your ${what}`,
        description: 'Press Try again, or reload the page. You can still chat by text.',
      };
  }
}

export function stopStream(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((t) => t.stop());
}
