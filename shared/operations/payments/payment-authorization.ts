import { ConnectorRequestError, ConnectorTechnicalError, type PaymentResult, type SavedMethodCharge } from '../../connectors/connector';
import type { CardDetails } from '../../domain/card';
import { maskCardNumbers } from '../../domain/card-mask';
import { ApiError, OutcomeUnknownError } from '../../domain/errors';
import { type AuthenticationAddress, type Payment, type PaymentMethod, processorReturnUrl } from '../../domain/payment';
import type { PaymentStatus } from '../../domain/payment-status';
import { type PendingOperation, startPendingOperation } from '../../domain/pending-operation';
import { type AuthorizationOutcome, recordAuthorization, recordPaymentOutcome } from '../../observability/metrics';
import { callWithinBudget } from '../../processor-call/connector-call';
import type { RoutedConnector } from '../../processor-call/connector-target';
import { markPaymentMethodUsed, processorCustomerIdOf } from '../../storage/payment-methods-repository';
import { getPayment as readPayment, type StoredPayment, updatePayment } from '../../storage/payments-repository';
import { ConditionFailedError } from '../../storage/storage-errors';
import type { RequestContext } from '../request-context';
import type { CircuitSkip } from '../routing/route-candidates';
import { attemptOf, claimHolderOf, conflict, handOverAfterStorageFailure, resultFields } from './payment-state';
import { runSettledPaymentHooks } from './settled-payment-hooks';

/** How many connectors one confirm may try: the routed one and, when it is known not to hold the payment, the next one once. */
export const MAX_CONNECTOR_TRIES = 2;

/** What an authorization needs beyond the claimed payment. `card` holds the PAN in memory only. */
export interface AuthorizationInput {
  paymentMethod: PaymentMethod;
  card: CardDetails | undefined;
  /** The payer's phone (E.164), for mobile money. */
  phone: string | null;
  /** USSD: the payer's bank (CBN code). */
  ussdBankCode?: string | undefined;
  /**
   * Connectors in routing order (the claimed one first), as `routeCandidates` returns them: its
   * `skipped` (connectors passed over because their circuit was open) become `circuit_open` attempts.
   */
  candidates: RoutedConnector[] & { readonly skipped?: readonly CircuitSkip[] };
  /** A saved payment method to charge: its token, decrypted in memory only. */
  savedMethod?: SavedMethodCharge;
  /** With `savedMethod`: the payer is absent (a merchant-initiated charge). */
  offSession?: boolean;
}

/**
 * After a recorded authorization outcome: saves the card when the payment asked for it
 * (`setup_future_usage`) and the processor returned a reusable token, and names the method on the payment;
 * notes a charged saved method's use. Never fails the payment's answer: a save that fails (storage) is logged and
 * counted, and the payment keeps `payment_method_id: null` (docs/api.md "Saved payment methods").
 */
export async function afterAuthorization(ctx: Pick<RequestContext, 'merchantId'>, done: Payment, result: PaymentResult): Promise<Payment> {
  // Steps other capabilities registered (billing: a subscription invoice's payment moves its invoice).
  await runSettledPaymentHooks(ctx.merchantId, done);
  const authorized = done.status === 'Succeeded' || done.status === 'RequiresCapture';
  if (authorized && done.payment_method_id && !done.setup_future_usage) {
    await markPaymentMethodUsed(ctx.merchantId, done.payment_method_id, done.updated_at);
    return done;
  }
  // Only a payment that asked to save its card and got a token saves one (saveMethodOfPayment checks the rest);
  // the saved-method code is loaded by the first such payment, not at cold start.
  if (!result.savedMethod || !done.setup_future_usage) return done;
  const { trySaveMethodOfPayment } = await import('../payment-methods/saved-methods');
  const method = await trySaveMethodOfPayment(ctx.merchantId, done, result.savedMethod);
  if (!method) return done;
  try {
    const stored = await readPayment(ctx.merchantId, done.payment_id);
    if (!stored || stored.payment.payment_method_id) return stored?.payment ?? done;
    return (await updatePayment(ctx.merchantId, stored, {}, { payment_method_id: method.payment_method_id })).payment;
  } catch {
    // The method is saved (its event says so); the payment names it on its next change.
    return { ...done, payment_method_id: method.payment_method_id };
  }
}

/**
 * The `Authorizations` outcome of a processor's answer (see `recordAuthorization` in
 * shared/observability/metrics.ts): authorized → `succeeded`; `Failed`/`Cancelled` → `declined`; the
 * payer must act → `requires_action`; `Processing` with nothing for the payer to do → `unknown`.
 */
export function authorizationOutcomeOf(result: Pick<PaymentResult, 'status' | 'nextAction'>): AuthorizationOutcome {
  switch (result.status) {
    case 'Succeeded':
    case 'RequiresCapture':
      return 'succeeded';
    case 'Failed':
    case 'Cancelled':
      return 'declined';
    case 'RequiresAction':
      return 'requires_action';
    case 'Processing':
      return result.nextAction ? 'requires_action' : 'unknown';
  }
}

/**
 * The attempt recording a connector routing passed over because its circuit was open: `Failed`,
 * `error_code: circuit_open`, no transaction id; the connector was not called.
 */
function circuitSkipAttempt(skip: CircuitSkip) {
  return attemptOf({ name: skip.connector, merchantConnectorId: skip.merchantConnectorId }, skip.at, {
    status: 'Failed',
    errorCode: 'circuit_open',
    errorMessage: `${skip.connector} was not called: it failed repeatedly just before (timeouts or errors), so routing passed it over.`,
  });
}

/** The billing address the merchant gave, in the shape processors' address checks take (fields it lacks are left out). */
export function billingAddressOf(p: Payment): Partial<AuthenticationAddress> | null {
  const a = p.billing?.address;
  if (!a) return null;
  const out: Partial<AuthenticationAddress> = {};
  if (a.line1) out.line1 = a.line1;
  if (a.city) out.city = a.city;
  if (a.state) out.state = a.state;
  if (a.zip) out.zip = a.zip;
  if (a.country) out.country = a.country;
  return out;
}

/**
 * Asks a connector whose authorize failed technically whether it holds the payment
 * (its `sync`, by our reference). Never throws: a failed lookup is `undefined` (unknown).
 */
async function probe(
  ctx: RequestContext,
  connector: RoutedConnector,
  p: Payment,
  paymentMethod: PaymentMethod,
  sentAt: string,
): Promise<PaymentResult | undefined> {
  try {
    return await callWithinBudget(ctx, connector, 'sync', () =>
      connector.sync({
        paymentId: p.payment_id,
        connectorTransactionId: null,
        amount: p.amount,
        currency: p.currency,
        paymentMethod,
        captureMethod: p.capture_method,
        createdAt: sentAt,
      }),
    );
  } catch {
    return undefined;
  }
}

/**
 * Runs the authorization of a payment already claimed (status `Processing`,
 * `pending_operation` authorize at the first candidate) and records the outcome with a
 * conditional write on the claimed version:
 * - the connector answers (success, decline, pending) → that outcome, claim released;
 * - it refuses the request (processor 4xx) → `Failed` with the processor's code, answered as 502;
 * - it fails technically (timeout, 5xx, network, the request's time budget) → the outcome is
 *   unknown. The next connector is tried only when this one is known not to hold the payment:
 *   the request never left (connection refused) or its lookup by our reference finds nothing
 *   after its propagation window. Before that call the claim moves to the next connector (one
 *   conditional write), so a crash during it is reconciled with the right processor. Otherwise
 *   the payment stays `Processing` with its claim (leased until the request's end plus the lease margin;
 *   `outcome_unknown` once it ends) and `error_code: connector_unreachable`, and the reconciler settles it.
 * When storage fails after a processor call, a request with an `Idempotency-Key` hands its claim over before
 * answering (`handOverAfterStorageFailure`), and answers the payment as stored if that shows the outcome recorded.
 * At most one processor can therefore hold money for a payment. Every try is in `attempts`, preceded
 * by one `Failed` attempt with `error_code: circuit_open` per connector routing passed over because
 * its circuit was open (never called). Each try counts one `Authorizations` (its outcome:
 * `technical_failure` when the connector is known not to hold the payment, `unknown` when it may).
 * @throws ApiError 502 `connector_error` when the processor refused the request; 409 when a sync took the claim over
 * @throws OutcomeUnknownError when the outcome write failed after a processor call
 */
export async function authorizeClaimed(ctx: RequestContext, claimed: StoredPayment, input: AuthorizationInput): Promise<Payment> {
  const p = claimed.payment;
  const attempts = [...(p.attempts ?? []), ...(input.candidates.skipped ?? []).map(circuitSkipAttempt)];
  const count = (connector: RoutedConnector, outcome: AuthorizationOutcome) =>
    recordAuthorization(connector.name, p.currency, input.paymentMethod, outcome, connector.merchantConnectorId);
  let current = claimed;
  const write = async (target: RoutedConnector, fields: Partial<Payment> & { status: PaymentStatus }, keep: PendingOperation | null) => {
    const connector = target.name;
    try {
      const done = await updatePayment(
        ctx.merchantId,
        current,
        {},
        { ...fields, connector, merchant_connector_id: target.merchantConnectorId, attempts },
        keep,
      );
      recordPaymentOutcome(done.payment);
      return done.payment;
    } catch (err) {
      // A sync or the reconciler took over this claim meanwhile: its answer stands.
      if (err instanceof ConditionFailedError) throw conflict('confirm', err);
      // Any other failure after a processor call (storage, a transaction conflict, a bug) leaves the claim: unknown.
      // A keyed request first hands its claim over, so its retry need not wait for the whole lease.
      const recorded = await handOverAfterStorageFailure(ctx, current, err);
      if (recorded) return recorded;
      throw new OutcomeUnknownError('payment', p.payment_id, connector, `/payments/${p.payment_id}`, { cause: err });
    }
  };
  // Every claim of this authorization names the request that holds it (its end and, when keyed, its hash).
  const holder = claimHolderOf(ctx, claimed.pendingOperation?.request);
  const tries = input.candidates.slice(0, MAX_CONNECTOR_TRIES);
  for (const [i, connector] of tries.entries()) {
    if (i > 0) {
      // The previous connector is known not to hold the payment: move the claim before calling the next.
      try {
        current = await updatePayment(
          ctx.merchantId,
          current,
          {},
          { connector: connector.name, merchant_connector_id: connector.merchantConnectorId, attempts },
          startPendingOperation('authorize', connector, p.payment_id, p.amount, Date.now(), holder),
        );
      } catch (err) {
        if (err instanceof ConditionFailedError) throw conflict('confirm', err);
        const recorded = await handOverAfterStorageFailure(ctx, current, err);
        if (recorded) return recorded;
        throw new OutcomeUnknownError('payment', p.payment_id, tries[i - 1]!.name, `/payments/${p.payment_id}`, { cause: err });
      }
    }
    // A processor customer made when an earlier card of this customer was saved at this account.
    const processorCustomerId =
      p.customer_id && p.setup_future_usage && !input.savedMethod
        ? await processorCustomerIdOf(ctx.merchantId, p.customer_id, {
            connector: connector.name,
            merchant_connector_id: connector.merchantConnectorId,
          })
        : null;
    const startedAt = new Date().toISOString();
    try {
      const result = await callWithinBudget(ctx, connector, 'authorize', () =>
        connector.authorize({
          paymentId: p.payment_id,
          amount: p.amount,
          currency: p.currency,
          paymentMethod: input.paymentMethod,
          captureMethod: p.capture_method,
          card: input.card,
          email: p.email,
          phone: input.phone,
          ...(input.ussdBankCode ? { ussdBankCode: input.ussdBankCode } : {}),
          billingAddress: billingAddressOf(p),
          publicBaseUrl: ctx.publicBaseUrl,
          returnUrl: processorReturnUrl(ctx.publicBaseUrl, p.payment_id),
          setupFutureUsage: p.setup_future_usage,
          customer: p.customer_id
            ? {
                customerId: p.customer_id,
                email: p.email,
                processorCustomerId,
              }
            : null,
          ...(input.savedMethod ? { savedMethod: input.savedMethod, offSession: input.offSession ?? false } : {}),
        }),
      );
      count(connector, authorizationOutcomeOf(result));
      attempts.push(attemptOf(connector, startedAt, result));
      return await afterAuthorization(ctx, await write(connector, resultFields(result, p), null), result);
    } catch (err) {
      if (err instanceof ConnectorRequestError) {
        count(connector, 'declined');
        attempts.push(attemptOf(connector, startedAt, { status: 'Failed', errorCode: err.code, errorMessage: err.message }));
        await write(
          connector,
          { status: 'Failed', error_code: maskCardNumbers(err.code), error_message: maskCardNumbers(err.message), next_action: null },
          null,
        );
        throw new ApiError(
          502,
          'connector_error',
          maskCardNumbers(err.code),
          `${connector.name} refused the payment: ${maskCardNumbers(err.message)} The payment is Failed.`,
        );
      }
      if (!(err instanceof ConnectorTechnicalError)) throw err;
      const hasNext = i + 1 < tries.length;
      const known = err.notSent
        ? ({ status: 'Failed', notFound: true, connectorTransactionId: null, amountCaptured: 0 } as PaymentResult)
        : hasNext
          ? await probe(ctx, connector, p, input.paymentMethod, startedAt)
          : undefined;
      if (hasNext && known?.notFound) {
        count(connector, 'technical_failure');
        attempts.push(
          attemptOf(connector, startedAt, {
            status: 'Failed',
            errorCode: 'connector_unreachable',
            errorMessage: `${err.message} ${connector.name} does not hold this payment; the next connector was tried.`,
          }),
        );
        continue;
      }
      if (known && !known.notFound && known.status !== 'Processing') {
        // The lookup found the payment at this connector: that is its outcome.
        count(connector, authorizationOutcomeOf(known));
        attempts.push(attemptOf(connector, startedAt, known));
        return await afterAuthorization(ctx, await write(connector, resultFields(known, p), null), known);
      }
      // Nothing sent (and no next connector) is a known failure; anything else may have reached the processor.
      count(connector, err.notSent ? 'technical_failure' : 'unknown');
      attempts.push(
        attemptOf(connector, startedAt, { status: 'Processing', errorCode: 'connector_unreachable', errorMessage: err.message }),
      );
      // Keep the claim, from when this try was sent and leased until this request's end: the processor may
      // still be working on it (its lookup keeps the claim while it cannot tell yet); after the lease GET shows
      // outcome_unknown and the reconciler asks.
      const unknown = startPendingOperation('authorize', connector, p.payment_id, p.amount, Date.parse(startedAt), holder);
      return await write(
        connector,
        {
          status: 'Processing',
          next_action: null,
          error_code: 'connector_unreachable',
          error_message: `${maskCardNumbers(err.message)} The outcome at ${connector.name} is unknown; the payment stays Processing until it is reconciled with ${connector.name}.`,
        },
        unknown,
      );
    }
  }
  // Unreachable: routeCandidates never returns an empty list, and every try above returns, continues before the last, or throws.
  throw new Error('authorizeClaimed ran out of connectors');
}
