import type { DeviceLists } from '../../lib/media/devices';
import type { BackgroundVideoFilter } from '../../lib/media/backgroundFilter';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const FILTERS: Array<{ value: BackgroundVideoFilter; label: MessageDescriptor }> = [
  { value: 'none', label: msg({ message: 'None', context: 'background filter' }) },
  { value: 'blur', label: msg`Blur background` },
  { value: 'grayscale', label: msg`Grayscale` },
];

/** Camera and microphone pickers and the background filter; changes apply during a call too. */
export function DeviceSettings({
  devices,
  deviceId,
  deviceAudioId,
  filter,
  onCamera,
  onMicrophone,
  onFilter,
}: {
  devices: DeviceLists;
  deviceId: string;
  deviceAudioId: string;
  filter: BackgroundVideoFilter;
  onCamera: (id: string) => void;
  onMicrophone: (id: string) => void;
  onFilter: (f: BackgroundVideoFilter) => void;
}) {
  const { i18n, t } = useLingui();
  const select = 'mt-1 block w-full min-h-11 rounded-lg bg-slate-800 px-2 text-white';
  return (
    <div className="grid gap-3 p-3 text-sm text-slate-100">
      <label className="block">
        <Trans>Camera</Trans>
        <select className={select} value={deviceId} onChange={(e) => onCamera(e.target.value)}>
          <option value="">{t`Default camera`}</option>
          {devices.cameras.map((d) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label}
            </option>
          ))}
        </select>
      </label>
      <label className="block">
        <Trans>Microphone</Trans>
        <select className={select} value={deviceAudioId} onChange={(e) => onMicrophone(e.target.value)}>
          <option value="">{t`Default microphone`}</option>
          {devices.microphones.map((d) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>
          <Trans>Background</Trans>
        </legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {FILTERS.map((f) => (
            <label
              key={f.value}
              className={`flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 ${filter === f.value ? 'bg-indigo-600' : 'bg-slate-800'}`}
            >
              <input
                type="radio"
                name="background-filter"
                value={f.value}
                checked={filter === f.value}
                onChange={() => onFilter(f.value)}
              />
              {i18n._(f.label)}
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
