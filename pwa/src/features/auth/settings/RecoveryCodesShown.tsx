import { Button } from '../../../components/ui/Button';
import { toast } from '../../../lib/toast';
import { Trans, useLingui } from '@lingui/react/macro';

/** Fresh recovery codes, shown this once: copy them or download them as a text file. */
export function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useLingui();
  const text = `${t`Parley recovery codes`}\n${t`Each code works once, to sign in or to reset a forgotten password.`}\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast({ title: t`Recovery codes copied` });
    } catch {
      toast({ title: t`Could not copy`, description: t`Select the codes and copy them yourself.`, variant: 'error' });
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'parley-recovery-codes.txt';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <div className="grid gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4" role="region" aria-label={t`Your new recovery codes`}>
      <p className="text-sm font-semibold text-slate-900">
        <Trans>Save these codes now. They are shown only once, and each works once.</Trans>
      </p>
      <ul className="grid grid-cols-2 gap-x-4 gap-y-1 font-mono text-base text-slate-900" data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          <Trans>Copy</Trans>
        </Button>
        <Button variant="secondary" size="sm" onClick={download}>
          <Trans>Download as .txt</Trans>
        </Button>
        <Button size="sm" onClick={onDone}>
          <Trans>I saved them</Trans>
        </Button>
      </div>
    </div>
  );
}
