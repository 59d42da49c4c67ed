/** Cameras and microphones: listing, opening, and saying what went wrong in words a person can act on. */
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

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
  const pick = (kind: MediaDeviceKind, label: (n: number) => string) =>
    devices.filter((d) => d.kind === kind && d.deviceId).map((d, i) => ({ deviceId: d.deviceId, label: d.label || label(i + 1) }));
  return {
    cameras: pick('videoinput', (n) => i18n._(msg`Camera ${n}`)),
    microphones: pick('audioinput', (n) => i18n._(msg`Microphone ${n}`)),
  };
}

export async function listDevices(): Promise<DeviceLists> {
  if (!navigator.mediaDevices?.enumerateDevices) return { cameras: [], microphones: [] };
  return toDeviceLists(await navigator.mediaDevices.enumerateDevices());
}

type What = 'camera' | 'microphone' | 'camera and microphone';

/** Each sentence whole for each device, so every language can say it its own way. */
const WORDS: Record<
  What,
  {
    denied: MessageDescriptor;
    deniedHow: MessageDescriptor;
    missing: MessageDescriptor;
    busy: MessageDescriptor;
    busyHow: MessageDescriptor;
    failed: MessageDescriptor;
  }
> = {
  camera: {
    denied: msg`Parley may not use your camera`,
    deniedHow: msg`Allow the camera for this site (the camera icon in the address bar, or your browser's site settings), then press Try again. You can still chat by text.`,
    missing: msg`No camera found`,
    busy: msg`Your camera is busy`,
    busyHow: msg`It may be in use by another app or tab. Close it there, then press Try again. You can still chat by text.`,
    failed: msg`Could not start your camera`,
  },
  microphone: {
    denied: msg`Parley may not use your microphone`,
    deniedHow: msg`Allow the microphone for this site (the camera icon in the address bar, or your browser's site settings), then press Try again. You can still chat by text.`,
    missing: msg`No microphone found`,
    busy: msg`Your microphone is busy`,
    busyHow: msg`It may be in use by another app or tab. Close it there, then press Try again. You can still chat by text.`,
    failed: msg`Could not start your microphone`,
  },
  'camera and microphone': {
    denied: msg`Parley may not use your camera and microphone`,
    deniedHow: msg`Allow the camera and microphone for this site (the camera icon in the address bar, or your browser's site settings), then press Try again. You can still chat by text.`,
    missing: msg`No camera and microphone found`,
    busy: msg`Your camera and microphone are busy`,
    busyHow: msg`They may be in use by another app or tab. Close them there, then press Try again. You can still chat by text.`,
    failed: msg`Could not start your camera and microphone`,
  },
};

/** What to tell the user when getUserMedia fails, by the DOMException name, in the interface language. */
export function mediaNotice(error: unknown, what: What = 'camera and microphone'): MediaNotice {
  const name =
    error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error)
      ? String((error as { name: unknown }).name)
      : '';
  const words = WORDS[what];
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return { problem: 'denied', title: i18n._(words.denied), description: i18n._(words.deniedHow) };
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return {
        problem: 'missing',
        title: i18n._(words.missing),
        description:
          what === 'microphone'
            ? i18n._(msg`Connect a microphone or choose another one in the lists below, then press Try again. You can still chat by text.`)
            : i18n._(msg`Connect a camera or choose another one in the lists below, then press Try again. You can still chat by text.`),
      };
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return { problem: 'busy', title: i18n._(words.busy), description: i18n._(words.busyHow) };
    case 'TypeError':
    case 'NotSupportedError':
      return {
        problem: 'unsupported',
        title: i18n._(msg`Video is not available here`),
        description: i18n._(
          msg`This browser or page cannot use a camera (it needs a secure https address). Try a current Chrome, Firefox or Safari. You can still chat by text.`,
        ),
      };
    default:
      return {
        problem: 'failed',
        title: i18n._(words.failed),
        description: i18n._(msg`Press Try again, or reload the page. You can still chat by text.`),
      };
  }
}

export function stopStream(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((t) => t.stop());
}
