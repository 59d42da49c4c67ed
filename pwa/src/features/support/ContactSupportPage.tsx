import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { FormAlert, SelectField, TextAreaField, TextField } from '../../components/ui/Field';
import { useForm } from '../../lib/form';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { toast } from '../../lib/toast';
import { useSendSupportRequestMutation } from './supportApi';
import { supportTopics, emptyDraft, supportErrorsFrom, validateSupportDraft, type SupportDraft, type SupportField } from './supportForm';
import { DocumentTitle } from '../../components/DocumentTitle';
import { Trans, useLingui } from '@lingui/react/macro';

const MESSAGE_MAX = 5000;

/** /contact-support: a message to the support team, stored by POST /api/support. */
export default function ContactSupportPage() {
  const { values: draft, errors, set, fail, reset, formRef } = useForm<SupportDraft>(emptyDraft);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [send, { isLoading }] = useSendSupportRequestMutation();
  const { t } = useLingui();
  const length = draft.message.length;
  const max = MESSAGE_MAX;

  const edit = (field: SupportField, value: string) => {
    set(field, value);
    setSentTo(null);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const checked = validateSupportDraft(draft);
    if ('errors' in checked) {
      fail(checked.errors);
      return;
    }
    const result = await send(checked.request);
    if (result.error) {
      fail(supportErrorsFrom(result.error));
      return;
    }
    reset();
    setSentTo(checked.request.email);
    const email = checked.request.email;
    toast({ title: t`Message sent`, description: t`Thank you! We will reply to ${email}.` });
  }

  return (
    <main id="main" className="min-h-frame bg-canvas">
      <DocumentTitle title={t`Contact support · Parley`} />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:py-16 lg:grid-cols-[1fr_1.2fr]">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl">
            <Trans>Contact support</Trans>
          </h1>
          <p className="mt-4 text-lg leading-relaxed text-slate-700">
            <Trans>
              Tell us what happened and how to reach you. A real person on our team reads every message and answers by email, usually within
              two working days.
            </Trans>
          </p>
          <ul className="mt-8 grid gap-4 text-base text-slate-700">
            <li className="rounded-card border border-line bg-surface p-5">
              <strong className="block text-slate-950">
                <Trans>Reporting someone?</Trans>
              </strong>
              <Trans>
                The report button in every chat sends us the details we need fastest. Use this form for anything the report button can’t
                cover.
              </Trans>
            </li>
            <li className="rounded-card border border-line bg-surface p-5">
              <strong className="block text-slate-950">
                <Trans>In danger right now?</Trans>
              </strong>
              <Trans>Leave the chat and call your local emergency number. We can act on accounts, but we cannot send help.</Trans>
            </li>
            <li className="rounded-card border border-line bg-surface p-5">
              <strong className="block text-slate-950">
                <Trans>Before you write</Trans>
              </strong>
              <Trans>
                The{' '}
                <Link to="/rules" className={`font-medium text-indigo-800 underline underline-offset-2 ${focusRing}`}>
                  community rules
                </Link>{' '}
                and the{' '}
                <Link to="/privacy-policy" className={`font-medium text-indigo-800 underline underline-offset-2 ${focusRing}`}>
                  privacy policy
                </Link>{' '}
                answer many questions.
              </Trans>
            </li>
          </ul>
        </div>

        <form
          ref={formRef}
          noValidate
          onSubmit={submit}
          aria-labelledby="support-form-title"
          className="grid gap-5 self-start rounded-card border border-line bg-surface p-6 shadow-raised sm:p-8"
        >
          <h2 id="support-form-title" className="text-xl font-bold text-slate-950">
            <Trans>Send us a message</Trans>
          </h2>
          <TextField
            label={t`Your email`}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            value={draft.email}
            error={errors.email}
            hint={t`We only use it to answer this request.`}
            onChange={(e) => edit('email', e.target.value)}
          />
          <SelectField
            label={t`Topic`}
            name="topic"
            required
            value={draft.topic}
            error={errors.topic}
            onChange={(e) => edit('topic', e.target.value)}
          >
            <option value="" disabled>
              <Trans>Choose a topic</Trans>
            </option>
            {supportTopics().map((topic) => (
              <option key={topic.value} value={topic.value}>
                {topic.label}
              </option>
            ))}
          </SelectField>
          <TextAreaField
            label={t`Message`}
            name="message"
            required
            rows={7}
            maxLength={MESSAGE_MAX}
            value={draft.message}
            error={errors.message}
            hint={t`${length} / ${max} characters. Include your username and, if it is about a chat, roughly when it happened.`}
            onChange={(e) => edit('message', e.target.value)}
          />
          <FormAlert message={errors.form} className="" />
          <button type="submit" disabled={isLoading} className={primaryButton}>
            {isLoading ? t`Sending…` : t`Send message`}
          </button>
          <p role="status" className="text-sm text-emerald-800 empty:hidden">
            {sentTo ? t`Thank you, your message is with our team. We will reply to ${sentTo}.` : ''}
          </p>
        </form>
      </div>
    </main>
  );
}
