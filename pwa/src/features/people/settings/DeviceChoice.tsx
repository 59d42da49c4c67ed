import { useEffect, useState } from 'react';
import type { Settings } from '@parley/contract/people';
import { SelectField } from '../../../components/ui/Field';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useUpdateSettingsMutation } from '../peopleApi';
import { useLingui } from '@lingui/react/macro';

/** The camera and microphone video chat starts with; names show once the browser has been allowed to use them. */
export function DeviceChoice({ settings }: { settings: Settings }) {
  const [save] = useUpdateSettingsMutation();
  const { t } = useLingui();
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  useEffect(() => {
    if (!navigator.mediaDevices?.enumerateDevices) return;
    void navigator.mediaDevices.enumerateDevices().then(setDevices, () => setDevices([]));
  }, []);
  const of = (kind: MediaDeviceKind) => devices.filter((d) => d.kind === kind && d.deviceId);

  async function choose(kind: 'camera' | 'microphone', id: string) {
    const r = await save({ devices: { ...settings.devices, [kind]: id || null } });
    if ('error' in r) toast({ title: t`Not saved`, description: describeApiError(r.error), variant: 'error' });
  }

  const select = (kind: 'camera' | 'microphone', label: string, list: MediaDeviceInfo[]) => (
    <SelectField label={label} value={settings.devices[kind] ?? ''} onChange={(e) => void choose(kind, e.target.value)}>
      <option value="">{t`The browser's default`}</option>
      {list.map((d, i) => (
        <option key={d.deviceId} value={d.deviceId}>
          {d.label || `${label} ${i + 1}`}
        </option>
      ))}
    </SelectField>
  );
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {select('camera', t`Camera`, of('videoinput'))}
      {select('microphone', t`Microphone`, of('audioinput'))}
    </div>
  );
}
