import { describe, expect, it } from 'vitest';
import { mediaNotice, toDeviceLists, videoConstraints } from './devices';
import { i18n } from '@lingui/core';

// The notices are in the interface language: English here.
i18n.loadAndActivate({ locale: 'en', messages: {} });

const domError = (name: string) => Object.assign(new Error(name), { name });

describe('media error notices', () => {
  it('tell denied, missing and busy apart and say what to do', () => {
    expect(mediaNotice(domError('NotAllowedError'), 'camera')).toMatchObject({
      problem: 'denied',
      title: 'Parley may not use your camera',
    });
    expect(mediaNotice(domError('NotFoundError'), 'microphone')).toMatchObject({ problem: 'missing', title: 'No microphone found' });
    expect(mediaNotice(domError('NotReadableError'), 'camera')).toMatchObject({ problem: 'busy', title: 'Your camera is busy' });
    for (const name of ['NotAllowedError', 'NotFoundError', 'NotReadableError', 'Whatever']) {
      const n = mediaNotice(domError(name));
      expect(n.description).toMatch(/Try again/);
      expect(n.description).toMatch(/chat by text/);
    }
  });

  it('treat a vanished chosen device as missing', () => {
    expect(mediaNotice(domError('OverconstrainedError'), 'camera').problem).toBe('missing');
  });
});

describe('device lists', () => {
  it('split cameras and microphones and name unlabelled devices', () => {
    const d = (kind: MediaDeviceKind, deviceId: string, label = '') => ({ kind, deviceId, label, groupId: '' }) as MediaDeviceInfo;
    expect(
      toDeviceLists([
        d('videoinput', 'c1', 'Front'),
        d('videoinput', 'c2'),
        d('audioinput', 'm1'),
        d('audiooutput', 'o1'),
        d('audioinput', ''),
      ]),
    ).toEqual({
      cameras: [
        { deviceId: 'c1', label: 'Front' },
        { deviceId: 'c2', label: 'Camera 2' },
      ],
      microphones: [{ deviceId: 'm1', label: 'Microphone 1' }],
    });
  });

  it('ask for the chosen camera exactly, or any camera when none is chosen', () => {
    expect(videoConstraints('c1')).toMatchObject({ deviceId: { exact: 'c1' } });
    expect(videoConstraints('')).not.toHaveProperty('deviceId');
  });
});
