import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { checkoutSessionIdSchema } from '@parley/contract/billing';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/ui/buttonStyles';
import { useAppDispatch, useCurrentUser, useSessionStatus } from '../../store/hooks';
import { api } from '../../store/api';
import { httpStatus } from '../../lib/apiError';
import { formatPrice, useCheckoutStatusQuery } from './billingApi';
import { tierName } from './perkLines';
import { Trans, useLingui } from '@lingui/react/macro';

/** How often the page asks whether Stripe's webhook has confirmed the payment, and for how long. */
const POLL_MS = 2000;
const PATIENCE_MS = 2 * 60 * 1000;
const link = `font-semibold text-indigo-800 underline underline-offset-2 ${focusRing}`;

/**
 * /payment/success: what was bought, once a verified webhook confirmed it. The redirect's query
 * only names the session; it is never taken as proof of payment.
 */
export default function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const user = useCurrentUser();
  const session = useSessionStatus();
  const { t } = useLingui();
  const parsed = checkoutSessionIdSchema.safeParse(params.get('session_id') ?? '');
  return (
    <main id="main" className="flex min-h-frame items-start justify-center bg-slate-50 px-4 py-14">
      <DocumentTitle title={t`Payment · Parley`} />
      <div className="w-full max-w-lg rounded-3xl bg-white p-6 text-center ring-1 ring-slate-200 sm:p-8">
        {!parsed.success ? (
          <Message title={t`Nothing to show here`}>
            <Trans>
              This page shows a payment after Stripe sends you back.{' '}
              <Link to="/premium-membership" className={link}>
                See the plans
              </Link>
              .
            </Trans>
          </Message>
        ) : session === 'restoring' ? (
          // Until the session is back, whether someone is signed in is not known yet.
          <Waiting title={t`Loading your purchase…`} />
        ) : !user ? (
          <Message title={t`Sign in to see your purchase`}>
            <Trans>
              <Link to={`/login?returnTo=${encodeURIComponent(`/payment/success?session_id=${parsed.data}`)}`} className={link}>
                Sign in
              </Link>{' '}
              with the account that paid.
            </Trans>
          </Message>
        ) : (
          <Confirmation id={parsed.data} />
        )}
      </div>
    </main>
  );
}

function Confirmation({ id }: { id: string }) {
  const [patient, setPatient] = useState(true);
  const [confirmed, setConfirmed] = useState(false);
  // Polls until the answer is final (or patience runs out); a final answer stops it.
  const { data, error } = useCheckoutStatusQuery(id, {
    pollingInterval: patient && !confirmed ? POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  const confirming = !data || data.state === 'confirming';
  if (!confirming && !confirmed) setConfirmed(true);
  useEffect(() => {
    const t = setTimeout(() => setPatient(false), PATIENCE_MS);
    return () => clearTimeout(t);
  }, []);
  // The new tier is in the next access token: take it now rather than at the next refresh.
  const dispatch = useAppDispatch();
  const { t } = useLingui();
  const subscribed = data?.state === 'complete' && data.kind === 'subscription';
  useEffect(() => {
    if (subscribed) void dispatch(api.endpoints.refresh.initiate());
  }, [dispatch, subscribed]);

  if (error) {
    return (
      <Message title={httpStatus(error) === 404 ? t`We could not find this payment` : t`The payment could not be checked`}>
        {httpStatus(error) === 404 ? t`It may belong to another account.` : t`Check your connection and reload this page.`}{' '}
        <Link to="/premium-membership" className={link}>
          <Trans>Back to premium</Trans>
        </Link>
      </Message>
    );
  }
  if (confirming) {
    return (
      <Waiting title={t`Confirming your payment…`}>
        {patient
          ? t`Stripe is confirming it with us; this usually takes a few seconds.`
          : t`This is taking longer than usual. Your plan updates as soon as Stripe confirms the payment; you can leave this page.`}
      </Waiting>
    );
  }
  if (data.state === 'expired')
    return (
      <Message title={t`This checkout expired`}>
        <Trans>
          Nothing was charged.{' '}
          <Link to="/premium-membership" className={link}>
            Try again
          </Link>
          .
        </Trans>
      </Message>
    );
  if (data.kind === 'subscription') {
    const tier = tierName(data.tier);
    return (
      <Message title={t`Welcome to ${tier}`}>
        {data.cycle === 'yearly' ? t`Your yearly membership is active.` : t`Your monthly membership is active.`}{' '}
        <Trans>
          <Link to="/premium-membership" className={link}>
            See your perks
          </Link>
          .
        </Trans>
      </Message>
    );
  }
  const amount = formatPrice(data.amount, data.currency);
  return (
    <Message title={t`Thank you for your donation`}>
      <Trans>
        We received {amount}.{' '}
        <Link to="/dashboard" className={link}>
          Back to Parley
        </Link>
        .
      </Trans>
    </Message>
  );
}

/** A spinner with what is being waited for, announced politely. */
function Waiting({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div role="status" aria-live="polite">
      <span
        aria-hidden="true"
        className="mx-auto block size-10 rounded-full border-4 border-indigo-200 border-t-indigo-700 motion-safe:animate-spin"
      />
      <h1 className="mt-4 text-2xl font-bold text-slate-950">{title}</h1>
      {children && <p className="mt-2 text-slate-700">{children}</p>}
    </div>
  );
}

function Message({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div role="status">
      <h1 className="text-2xl font-bold text-slate-950">{title}</h1>
      <p className="mt-3 text-base text-slate-700">{children}</p>
    </div>
  );
}
