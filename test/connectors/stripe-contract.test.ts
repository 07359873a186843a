/**
 * Contract tests of the Stripe adapter against Stripe's own published material, not against the
 * adapter's assumptions:
 *
 * (a) Requests. Every request the adapter can send — authorize (PaymentMethod + PaymentIntent,
 *     automatic and manual capture, with billing details), capture, void, refund, sync by id and by
 *     search, the refund listing (first page and a `starting_after` page) and the refund retrieval —
 *     is captured by the loopback stand-in (test/helpers/stripe-stand-in.ts), decoded from its form
 *     encoding and checked against the param type the installed `stripe` package (stripe-node 23.1.0,
 *     generated from Stripe's OpenAPI spec v2596, API version 2026-10-28.endive) declares for that
 *     method and path: every key must name a parameter of that type (nested ones included), every value
 *     must fit its type (numbers, booleans, string literals; the package's enums are open — they end in
 *     `OtherString` — so any string fits them) and every required parameter must be present. The types are read with the TypeScript compiler API from
 *     `node_modules/stripe`, so a package upgrade that removes or renames a parameter we send fails
 *     here. The compile-time half is `tsc`: the builders in `shared/connectors/stripe/requests.ts`
 *     return those param types (and the `@ts-expect-error` below proves `payment_method_types` is no
 *     longer a PaymentIntent parameter). Stripe's `openapi/spec3.json` itself is not used: the copy
 *     reachable here (stripe/openapi, commit f6c2a48fbac2, tag v2436) does not carry the file's
 *     content, and it predates the package's spec version.
 *
 * (a') Saved payment methods. The requests of saving a card, charging it off- and on-session, asking the
 *     payer after an off-session `authentication_required` and detaching it are captured and checked the same way,
 *     with the three param types they add (`CustomerCreateParams`, `PaymentIntentConfirmParams`,
 *     `PaymentMethodDetachParams`). Their response samples (fixtures/stripe/saved-methods/) are asserted in
 *     stripe-saved-methods.test.ts.
 *
 * (b) Responses. Every documented response sample — the `payment_intent`, `refund`,
 *     `payment_method` and `event` objects of Stripe's OpenAPI fixtures (stripe/openapi
 *     `openapi/fixtures3.json`, commit f6c2a48fbac2819d1feba8143d942ffc65e1c0d2, kept as
 *     fixtures/stripe/openapi.fixtures3.extract.json; its `balance` object, the credential check's answer, in
 *     fixtures/stripe/openapi-fixtures3/balance.extract.json) and every recorded fixture of
 *     test/connectors/fixtures/stripe/ (sources in fixtures/SOURCES.md) — runs through the adapter's
 *     mapping with an asserted outcome; a fixture file without one fails the test.
 */
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Stripe from 'stripe';
import ts from 'typescript';
import type { AuthorizeRequest, PaymentResult, RefundResult, WebhookEvent } from '../../shared/connectors/connector';
import {
  declineFromErrorBody,
  isStripeBalance,
  paymentResultFromIntent,
  refundResultFromRefund,
  stripeErrorOf,
} from '../../shared/connectors/stripe/responses';
import { StripeConnector } from '../../shared/connectors/stripe/stripe-connector';
import type { StripeList, StripePaymentIntent, StripeRefund } from '../../shared/connectors/stripe/wire-types';
import { type StandInRequest, type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';
import { RECORDED_DISPUTE_CREATED_EVENT } from './stripe-dispute-event';

const FIXTURES = join(__dirname, 'fixtures', 'stripe');
const fixture = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Record<string, unknown>;

/* ------------------------------------------------------------------ compile-time half */

// The installed package no longer has `payment_method_types` on PaymentIntentCreateParams (stripe-node
// 23.0.0 CHANGELOG: "Remove support for `payment_method_types` on … `PaymentIntentCreateParams`"). If it
// ever came back, this directive would be unused and `tsc` would fail, prompting a look at this file.
// biome-ignore lint/suspicious/noExportsInTest: exported so tsc type-checks it without an unused-local error
export const removedParameter: Stripe.PaymentIntentCreateParams = {
  amount: 100,
  currency: 'usd',
  // @ts-expect-error payment_method_types was removed in API version 2026-09-30.endive
  payment_method_types: ['card'],
};

/* ------------------------------------------------------------------ runtime half: the param types */

/** Which `stripe` param type describes a request, by method and path (ids replaced by `{id}`). */
const PARAM_TYPES: Readonly<Record<string, string>> = {
  'POST /v1/payment_methods': 'PaymentMethodCreateParams',
  'POST /v1/payment_intents': 'PaymentIntentCreateParams',
  'POST /v1/payment_intents/{id}/capture': 'PaymentIntentCaptureParams',
  'POST /v1/payment_intents/{id}/cancel': 'PaymentIntentCancelParams',
  'POST /v1/refunds': 'RefundCreateParams',
  'GET /v1/payment_intents/search': 'PaymentIntentSearchParams',
  'GET /v1/payment_intents/{id}': 'PaymentIntentRetrieveParams',
  'GET /v1/refunds': 'RefundListParams',
  'GET /v1/refunds/{id}': 'RefundRetrieveParams',
};

/**
 * The `stripe` param types of the requests of saved payment methods that are not in {@link PARAM_TYPES}:
 * the Customer, the confirm that asks the payer after an off-session `authentication_required`, the detach
 * (stripe-node 23.1.0 `resources/Customers.d.ts`, `PaymentIntents.d.ts`, `PaymentMethods.d.ts`).
 */
const SAVED_METHOD_PARAM_TYPES: Readonly<Record<string, string>> = {
  'POST /v1/customers': 'CustomerCreateParams',
  'POST /v1/payment_intents/{id}/confirm': 'PaymentIntentConfirmParams',
  'POST /v1/payment_methods/{id}/detach': 'PaymentMethodDetachParams',
};

/** `POST /v1/payment_intents/pi_…/capture` → `POST /v1/payment_intents/{id}/capture` (`search` is a path, not an id). */
function routeOf(r: Pick<StandInRequest, 'method' | 'path'>): string {
  const path = r.path.replace(/^\/v1\/(payment_intents|refunds|payment_methods)\/(?!search$)[^/]+/, '/v1/$1/{id}');
  return `${r.method} ${path}`;
}

/**
 * The `stripe` package's param types, read with the TypeScript compiler from a one-line virtual module
 * (`import type Stripe from 'stripe'`) resolved like the project's own sources.
 */
function loadParamTypes(names: readonly string[]): { checker: ts.TypeChecker; types: Map<string, ts.Type> } {
  const file = join(process.cwd(), 'test', '__stripe_param_types__.ts');
  const source = `import type Stripe from 'stripe';\n${names.map((n) => `export type ${n} = Stripe.${n};`).join('\n')}\n`;
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const checker = program.getTypeChecker();
  const types = new Map<string, ts.Type>();
  for (const statement of program.getSourceFile(file)!.statements) {
    if (ts.isTypeAliasDeclaration(statement)) types.set(statement.name.text, checker.getTypeAtLocation(statement.name));
  }
  for (const name of names) {
    const type = types.get(name);
    if (!type || type.flags & ts.TypeFlags.Any) throw new Error(`Stripe.${name} is not a type of the installed stripe package`);
  }
  return { checker, types };
}

/** A decoded form: `a[b][0]=x` → `{a: {b: {'0': 'x'}}}`. */
type FormTree = { [key: string]: FormTree | string };

/** Decodes form pairs into a tree (Stripe's bracket notation); a key used both as a value and as an object is an error. */
function decodeForm(form: Record<string, string>): { tree: FormTree; errors: string[] } {
  const tree: FormTree = {};
  const errors: string[] = [];
  for (const [key, value] of Object.entries(form)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!m) {
      errors.push(`${key}: not a Stripe form key`);
      continue;
    }
    const segments = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((s) => s[1]!)];
    let node = tree;
    for (const [i, segment] of segments.entries()) {
      if (i === segments.length - 1) {
        if (segment in node) errors.push(`${key}: given twice or also as an object`);
        node[segment] = value;
      } else {
        const next = node[segment] ?? {};
        if (typeof next === 'string') {
          errors.push(`${key}: ${segments.slice(0, i + 1).join('.')} is also a value`);
          break;
        }
        node[segment] = next;
        node = next;
      }
    }
  }
  return { tree, errors };
}

/** Checks a decoded form against a param type. @returns the problems found (empty: the request fits the type) */
function checkAgainstType(checker: ts.TypeChecker, type: ts.Type, tree: FormTree): string[] {
  const constituents = (t: ts.Type): ts.Type[] => (t.isUnion() ? t.types : [t]);
  const isStringLike = (t: ts.Type): boolean =>
    !!(t.flags & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral)) ||
    (t.isIntersection() && t.types.some((p) => !!(p.flags & ts.TypeFlags.String)));

  /** Whether the form value (always a string on the wire) is acceptable for a leaf of type `t`. */
  const leafAccepts = (t: ts.Type, value: string): boolean =>
    constituents(checker.getNonNullableType(t)).some((c) => {
      if (isStringLike(c)) return true;
      if (c.isStringLiteral()) return c.value === value;
      if (c.flags & ts.TypeFlags.Number) return /^-?\d+(\.\d+)?$/.test(value);
      if (c.isNumberLiteral()) return String(c.value) === value;
      if (c.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return value === 'true' || value === 'false';
      return false;
    });

  const check = (t: ts.Type, node: FormTree | string, path: string): string[] => {
    if (typeof node === 'string')
      return leafAccepts(t, node) ? [] : [`${path}=${JSON.stringify(node)} does not fit ${checker.typeToString(t)}`];
    const attempts = constituents(checker.getNonNullableType(t))
      .filter((c) => !!(c.flags & ts.TypeFlags.Object) || c.isIntersection())
      .map((c) => checkObject(c, node, path));
    if (attempts.length === 0) return [`${path} is an object on the wire but ${checker.typeToString(t)} is not`];
    return attempts.reduce((best, a) => (a.length < best.length ? a : best));
  };

  const checkObject = (c: ts.Type, node: FormTree, path: string): string[] => {
    const problems: string[] = [];
    if (checker.isArrayType(c)) {
      const element = checker.getTypeArguments(c as ts.TypeReference)[0]!;
      for (const [k, v] of Object.entries(node)) {
        if (!/^\d+$/.test(k)) problems.push(`${path}[${k}] is not an array index`);
        else problems.push(...check(element, v, `${path}[${k}]`));
      }
      return problems;
    }
    const index = checker.getIndexTypeOfType(c, ts.IndexKind.String);
    for (const [k, v] of Object.entries(node)) {
      const prop = c.getProperty(k);
      const childPath = path ? `${path}[${k}]` : k;
      if (prop) problems.push(...check(checker.getTypeOfSymbol(prop), v, childPath));
      else if (index) problems.push(...check(index, v, childPath));
      else problems.push(`${childPath} is not a parameter of ${checker.typeToString(c)}`);
    }
    for (const prop of c.getProperties()) {
      if (!(prop.flags & ts.SymbolFlags.Optional) && !(prop.name in node))
        problems.push(`${path ? `${path}[${prop.name}]` : prop.name} is required`);
    }
    return problems;
  };

  return check(type, tree, '');
}

/* ------------------------------------------------------------------ capturing every request */

let standIn: StripeStandIn;
let paramTypes: ReturnType<typeof loadParamTypes>;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  paramTypes = loadParamTypes([...new Set([...Object.values(PARAM_TYPES), ...Object.values(SAVED_METHOD_PARAM_TYPES)])]);
});
afterAll(async () => {
  await standIn.close();
});

const stripe = () =>
  new StripeConnector({ baseUrl: standIn.url, secretKey: standIn.secretKey, webhookSecret: standIn.webhookSecret, timeoutMs: 2000 });

const authorizeRequest = (paymentId: string, over: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  paymentId,
  amount: 150000,
  currency: 'USD',
  paymentMethod: 'card',
  captureMethod: 'automatic',
  card: { card_number: '4242424242424242', card_exp_month: '07', card_exp_year: '31', card_cvc: '314' },
  email: 'payer@example.com',
  phone: '+2348012345678',
  billingAddress: { line1: '1 Marina Road', city: 'Lagos', state: 'Lagos', zip: '101001', country: 'NG' },
  publicBaseUrl: 'https://api.switchyard.test',
  returnUrl: `https://api.switchyard.test/pay/${paymentId}/return`,
  ...over,
});

/** Drives every operation of the adapter once (and a refund listing long enough for a second page). */
async function exerciseEveryRequest(): Promise<void> {
  const adapter = stripe();
  const paid = await adapter.authorize(authorizeRequest('pay_contract_auto'));
  const held = await adapter.authorize(
    authorizeRequest('pay_contract_manual', { captureMethod: 'manual', email: null, phone: null, billingAddress: null }),
  );
  const voidable = await adapter.authorize(authorizeRequest('pay_contract_void', { captureMethod: 'manual' }));
  await adapter.capture({
    paymentId: 'pay_contract_manual',
    connectorTransactionId: held.connectorTransactionId!,
    currency: 'USD',
    amount: 100000,
  });
  await adapter.void({ paymentId: 'pay_contract_void', connectorTransactionId: voidable.connectorTransactionId!, currency: 'USD' });
  const pi = paid.connectorTransactionId!;
  // 101 refunds of 1 minor unit: the lookup of a missing one reads two pages (limit 100, then starting_after).
  for (let i = 0; i < 101; i += 1)
    await adapter.refund({
      paymentId: 'pay_contract_auto',
      connectorTransactionId: pi,
      currency: 'USD',
      amount: 1,
      refundId: `ref_contract_${i}`,
    });
  const old = new Date(Date.now() - 24 * 3600_000).toISOString();
  await expect(
    adapter.findRefund({
      refundId: 'ref_contract_missing',
      paymentId: 'pay_contract_auto',
      connectorTransactionId: pi,
      amount: 1,
      currency: 'USD',
      createdAt: old,
    }),
  ).resolves.toBeNull();
  const refundId = standIn.ledger().pay_contract_auto!.refunds[0]!.id;
  await adapter.syncRefund({ refundId: 'ref_contract_0', connectorRefundId: refundId, currency: 'USD' });
  const syncRequest = {
    paymentId: 'pay_contract_auto',
    amount: 150000,
    currency: 'USD' as const,
    paymentMethod: 'card' as const,
    captureMethod: 'automatic' as const,
    createdAt: old,
  };
  await adapter.sync({ ...syncRequest, connectorTransactionId: pi });
  await adapter.sync({ ...syncRequest, connectorTransactionId: null });
}

describe("(a) every request the adapter sends fits the stripe package's param type for its method and path", () => {
  let captured: StandInRequest[] = [];

  beforeAll(async () => {
    await exerciseEveryRequest();
    captured = [...standIn.requests];
  });

  test('the requests cover every route the adapter uses, each answered 200, with Stripe-Version', () => {
    expect([...new Set(captured.map(routeOf))].sort()).toEqual(Object.keys(PARAM_TYPES).sort());
    expect(captured.filter((r) => r.status !== 200)).toEqual([]);
    expect(new Set(captured.map((r) => r.stripeVersion))).toEqual(new Set(['2026-10-28.endive']));
    expect(captured.some((r) => r.query.includes('starting_after='))).toBe(true);
  });

  test('each request decodes to an object of its param type (known keys, fitting values, required keys present)', () => {
    const problems: string[] = [];
    for (const r of captured) {
      const name = PARAM_TYPES[routeOf(r)];
      if (!name) {
        problems.push(`${routeOf(r)}: no param type known`);
        continue;
      }
      const { tree, errors } = decodeForm(r.form);
      problems.push(
        ...[...errors, ...checkAgainstType(paramTypes.checker, paramTypes.types.get(name)!, tree)].map(
          (p) => `${routeOf(r)} (Stripe.${name}): ${p}`,
        ),
      );
    }
    expect(problems).toEqual([]);
  });

  test('the checker is not vacuous: the old inline card, payment_method_types, a non-boolean, a non-integer, missing required params and a bad array index are caught', () => {
    const intent = paramTypes.types.get('PaymentIntentCreateParams')!;
    const problems = (form: Record<string, string>) => checkAgainstType(paramTypes.checker, intent, decodeForm(form).tree);
    const base = { amount: '1000', currency: 'usd' };
    expect(problems(base)).toEqual([]);
    expect(problems({ ...base, 'payment_method_data[type]': 'card', 'payment_method_data[card][number]': '4242' })).toEqual([
      expect.stringContaining('payment_method_data[card] is not a parameter'),
    ]);
    expect(problems({ ...base, 'payment_method_types[0]': 'card' })).toEqual([
      expect.stringContaining('payment_method_types is not a parameter'),
    ]);
    expect(problems({ ...base, confirm: 'yes' })).toEqual([expect.stringContaining('confirm="yes" does not fit')]);
    expect(problems({ ...base, amount: '10.5x' })).toEqual([expect.stringContaining('amount="10.5x" does not fit')]);
    expect(problems({ currency: 'usd' })).toEqual(['amount is required']);
    expect(problems({ ...base, 'automatic_payment_methods[allow_redirects]': 'never' })).toEqual([
      'automatic_payment_methods[enabled] is required',
    ]);
    expect(problems({ ...base, 'metadata[anything]': 'x', 'allowed_payment_method_types[0]': 'card' })).toEqual([]);
    expect(problems({ ...base, 'allowed_payment_method_types[x]': 'card' })).toEqual([expect.stringContaining('not an array index')]);
  });
});

/**
 * Drives every request of saved payment methods once: a first payment that saves the card (Customer,
 * PaymentMethod, PaymentIntent with `setup_future_usage`, `customer`, `expand`), an off-session and an on-session
 * charge of it, Stripe's "always authenticate" card (`4000002760003184`, https://docs.stripe.com/testing#regulatory-cards)
 * whose off-session charge is refused `authentication_required` and confirmed on-session, a sync by id (expanded),
 * and the detach.
 * @returns the requests, in order
 */
async function exerciseSavedMethodRequests(): Promise<StandInRequest[]> {
  standIn.reset();
  const adapter = stripe();
  const customer = { customerId: 'cus_ours_contract', email: 'payer@example.com', processorCustomerId: null };
  const saved = await adapter.authorize(authorizeRequest('pay_contract_save', { setupFutureUsage: 'off_session', customer }));
  const token = { token: saved.savedMethod!.token, processorCustomerId: saved.savedMethod!.processorCustomerId ?? null };
  const charge = (paymentId: string, over: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
    ...authorizeRequest(paymentId, { card: undefined, email: null, phone: null, billingAddress: null }),
    savedMethod: token,
    offSession: true,
    ...over,
  });
  await adapter.authorize(charge('pay_contract_off_session'));
  await adapter.authorize(charge('pay_contract_on_session', { offSession: false }));
  const asked = await adapter.authorize(
    authorizeRequest('pay_contract_3ds', {
      card: { card_number: '4000002760003184', card_exp_month: '07', card_exp_year: '31', card_cvc: '314' },
      setupFutureUsage: 'off_session',
      customer: { ...customer, processorCustomerId: token.processorCustomerId },
    }),
  );
  standIn.completeAuthentication(asked.connectorTransactionId!);
  const synced = await adapter.sync({
    paymentId: 'pay_contract_3ds',
    connectorTransactionId: asked.connectorTransactionId,
    amount: 150000,
    currency: 'USD',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    createdAt: new Date().toISOString(),
  });
  const recovered = await adapter.authorize(
    charge('pay_contract_authentication_required', {
      savedMethod: { token: synced.savedMethod!.token, processorCustomerId: token.processorCustomerId },
    }),
  );
  expect(recovered.status).toBe('RequiresAction');
  await adapter.detachSavedMethod(token);
  return [...standIn.requests];
}

describe("(a') the requests of saved payment methods fit the stripe package's param types", () => {
  let captured: StandInRequest[] = [];
  const types = { ...PARAM_TYPES, ...SAVED_METHOD_PARAM_TYPES };

  beforeAll(async () => {
    captured = await exerciseSavedMethodRequests();
  });

  test('they cover the new routes; each is answered 200 but the documented 402 authentication_required of the off-session charge', () => {
    const routes = new Set(captured.map(routeOf));
    for (const route of Object.keys(SAVED_METHOD_PARAM_TYPES)) expect(routes).toContain(route);
    expect(captured.filter((r) => r.status !== 200).map((r) => `${r.status} ${routeOf(r)} ${r.form.off_session}`)).toEqual([
      '402 POST /v1/payment_intents true',
    ]);
    expect(captured.some((r) => r.form.setup_future_usage === 'off_session' && r.form['expand[0]'] === 'payment_method')).toBe(true);
    expect(captured.some((r) => routeOf(r) === 'GET /v1/payment_intents/{id}' && r.form['expand[0]'] === 'payment_method')).toBe(true);
  });

  test('each request decodes to an object of its param type (known keys, fitting values, required keys present)', () => {
    const problems: string[] = [];
    for (const r of captured) {
      const name = types[routeOf(r)];
      if (!name) {
        problems.push(`${routeOf(r)}: no param type known`);
        continue;
      }
      const { tree, errors } = decodeForm(r.form);
      problems.push(
        ...[...errors, ...checkAgainstType(paramTypes.checker, paramTypes.types.get(name)!, tree)].map(
          (p) => `${routeOf(r)} (Stripe.${name}): ${p}`,
        ),
      );
    }
    expect(problems).toEqual([]);
  });

  test('the checker knows these types: an unknown Customer parameter, an object for a string on confirm, a detach parameter are caught', () => {
    const check = (name: string, form: Record<string, string>) =>
      checkAgainstType(paramTypes.checker, paramTypes.types.get(name)!, decodeForm(form).tree);
    expect(check('CustomerCreateParams', { email: 'a@b.c', 'metadata[customer_id]': 'cus_1' })).toEqual([]);
    expect(check('CustomerCreateParams', { customer_id: 'cus_1' })).toEqual([expect.stringContaining('customer_id is not a parameter')]);
    // off_session is `boolean | 'one_off' | 'recurring' | OtherString` (an open enum: any string fits); an object does not.
    expect(check('PaymentIntentConfirmParams', { 'payment_method[id]': 'pm_1' })).toEqual([
      expect.stringContaining('payment_method is an object on the wire'),
    ]);
    expect(check('PaymentMethodDetachParams', { customer: 'cus_1' })).toEqual([expect.stringContaining('customer is not a parameter')]);
  });
});

/* ------------------------------------------------------------------ (b) responses */

const WEBHOOK_SECRET = 'whsec_contractSigningSecret0123456789';
const NOW_MS = 1_714_000_400_000;
const adapterForWebhooks = () =>
  new StripeConnector({ baseUrl: 'http://127.0.0.1:1', secretKey: 'sk_test_contract', webhookSecret: WEBHOOK_SECRET, now: () => NOW_MS });
const signed = (rawBody: string) => {
  const t = Math.floor(NOW_MS / 1000);
  return { 'stripe-signature': `t=${t},v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${rawBody}`).digest('hex')}` };
};

const PI = 'pi_3OzKx2LkdIwHu7ix1AbCdEfG';
const RE = 're_3OzKx2LkdIwHu7ix1RfNdAbC';
const PAY = 'pay_01HXSTRIPE0001';
const REF = 'ref_01HXSTRIPE0001';
const REDIRECT =
  'https://hooks.stripe.com/3d_secure_2/hosted?merchant=acct_1Nv0FGLkdIwHu7ix&payment_intent=pi_3OzKx2LkdIwHu7ix1AbCdEfG&payment_intent_client_secret=pi_3OzKx2LkdIwHu7ix1AbCdEfG_secret_q8Wm1lTbYtJ0dZ9uVh2xZkYrN&publishable_key=pk_test_51Nv0FG&source=payatt_3OzKx2LkdIwHu7ix1QwErTyU';

type Outcome =
  | { payment: PaymentResult }
  | { refund: RefundResult }
  | { items: Array<PaymentResult | RefundResult> }
  | { webhook: WebhookEvent }
  | { error: { status: number; code: string; decline: PaymentResult | null } }
  | { openapi: Record<string, unknown> };

const paymentOf = (status: PaymentResult['status'], over: Partial<PaymentResult> = {}): { payment: PaymentResult } => ({
  payment: { status, connectorTransactionId: PI, amountCaptured: 0, ...over },
});
const webhookPayment = (eventId: string, result: PaymentResult): { webhook: WebhookEvent } => ({
  webhook: { kind: 'payment', eventId, paymentId: PAY, connectorTransactionId: PI, result },
});
const webhookRefund = (eventId: string, result: RefundResult): { webhook: WebhookEvent } => ({
  webhook: { kind: 'refund', eventId, refundId: REF, connectorRefundId: RE, result },
});
const refundFailed = (errorCode: string, errorMessage: string): RefundResult => ({
  status: 'Failed',
  connectorRefundId: RE,
  errorCode,
  errorMessage,
});

/**
 * The asserted outcome of every fixture file. Errors are mapped with the HTTP status Stripe answers
 * them with (https://docs.stripe.com/api/errors: 402 card errors, 401 authentication, 404 unknown
 * object, 409 idempotency conflict, 500 api_error, 400 otherwise).
 */
const EXPECTED: Readonly<Record<string, Outcome>> = {
  'error.amount_too_small.json': { error: { status: 400, code: 'amount_too_small', decline: null } },
  'error.api_error.json': { error: { status: 500, code: 'api_error', decline: null } },
  'error.card_declined.json': {
    error: {
      status: 402,
      code: 'card_declined',
      decline: paymentOf('Failed', { errorCode: 'insufficient_funds', errorMessage: 'Your card has insufficient funds.' }).payment,
    },
  },
  'error.idempotency_key_in_use.json': { error: { status: 409, code: 'idempotency_key_in_use', decline: null } },
  'error.incorrect_number.json': {
    error: {
      status: 402,
      code: 'incorrect_number',
      decline: {
        status: 'Failed',
        connectorTransactionId: null,
        amountCaptured: 0,
        errorCode: 'incorrect_number',
        errorMessage: 'Your card number is incorrect.',
      },
    },
  },
  'error.invalid_api_key.json': { error: { status: 401, code: 'invalid_request_error', decline: null } },
  'error.payment_intent_unexpected_state.json': { error: { status: 400, code: 'payment_intent_unexpected_state', decline: null } },
  'error.raw_card_data_not_enabled.json': { error: { status: 400, code: 'invalid_request_error', decline: null } },
  'error.resource_missing.json': { error: { status: 404, code: 'resource_missing', decline: null } },
  // Mapped to a dispute.
  'event.charge.dispute.created.json': {
    webhook: RECORDED_DISPUTE_CREATED_EVENT,
  },
  'event.charge.refund.updated.json': webhookRefund('evt_3OzKx2LkdIwHu7ix1ReFuNdU', { status: 'Succeeded', connectorRefundId: RE }),
  'event.payment_intent.amount_capturable_updated.json': webhookPayment(
    'evt_3OzKx2LkdIwHu7ix1CaPtUrE',
    paymentOf('RequiresCapture').payment,
  ),
  'event.payment_intent.canceled.json': webhookPayment('evt_3OzKx2LkdIwHu7ix1CaNcElD', paymentOf('Cancelled').payment),
  'event.payment_intent.payment_failed.json': webhookPayment(
    'evt_3OzKx2LkdIwHu7ix1FaIlEdD',
    paymentOf('Failed', { errorCode: 'insufficient_funds', errorMessage: 'Your card has insufficient funds.' }).payment,
  ),
  'event.payment_intent.processing.json': webhookPayment('evt_3OzKx2LkdIwHu7ix1PrOcEsS', paymentOf('Processing').payment),
  'event.payment_intent.succeeded.json': webhookPayment(
    'evt_3OzKx2LkdIwHu7ix1SuCcEsS',
    paymentOf('Succeeded', { amountCaptured: 150000 }).payment,
  ),
  'event.refund.failed.json': webhookRefund(
    'evt_3OzKx2LkdIwHu7ix1ReFfAiL',
    refundFailed('lost_or_stolen_card', 'The refund failed at Stripe.'),
  ),
  'event.refund.updated.json': webhookRefund('evt_3OzKx2LkdIwHu7ix1ReFuPdT', { status: 'Succeeded', connectorRefundId: RE }),
  'openapi.fixtures3.extract.json': {
    openapi: {
      // requires_payment_method with a last_payment_error: the attempt failed (code = the error's type; no message in the sample).
      payment_intent: {
        status: 'Failed',
        connectorTransactionId: 'pi_1PgafyB7WZ01zgkWSjxsAJo3',
        amountCaptured: 0,
        errorCode: 'idempotency_error',
        errorMessage: null,
      },
      refund: { status: 'Succeeded', connectorRefundId: 're_1Pgc72B7WZ01zgkWqPvrRrPE' },
      // The adapter reads only the PaymentMethod's id, given to the PaymentIntent as payment_method.
      payment_method: 'pm_1Pgc75B7WZ01zgkWlHVgdEGJ',
      event: { kind: 'ignored', eventId: 'evt_1Pgc76B7WZ01zgkWwyRHS12y', reason: 'Stripe event plan.created is not applied.' },
    },
  },
  'payment_intent.canceled.json': paymentOf('Cancelled'),
  'payment_intent.captured_partial.json': paymentOf('Succeeded', { amountCaptured: 100000 }),
  'payment_intent.processing.json': paymentOf('Processing'),
  'payment_intent.requires_action.redirect_to_url.json': paymentOf('RequiresAction', {
    nextAction: { type: 'redirect_to_url', redirect_to_url: REDIRECT },
  }),
  'payment_intent.requires_action.use_stripe_sdk.json': paymentOf('RequiresAction', {
    nextAction: { type: 'redirect_to_url', redirect_to_url: expect.stringMatching(/^https:\/\/hooks\.stripe\.com\//) as unknown as string },
  }),
  'payment_intent.requires_capture.json': paymentOf('RequiresCapture'),
  'payment_intent.requires_confirmation.json': paymentOf('Processing'),
  'payment_intent.requires_payment_method.json': paymentOf('Failed', {
    errorCode: 'payment_intent_authentication_failure',
    errorMessage: expect.stringContaining('failed authentication') as unknown as string,
  }),
  'payment_intent.succeeded.json': paymentOf('Succeeded', { amountCaptured: 150000 }),
  'refund.canceled.json': {
    refund: { status: 'Failed', connectorRefundId: RE, errorCode: 'canceled', errorMessage: 'The refund was canceled at Stripe.' },
  },
  'refund.failed.json': { refund: refundFailed('expired_or_canceled_card', 'The refund failed at Stripe.') },
  'refund.pending.json': { refund: { status: 'Pending', connectorRefundId: RE } },
  'refund.requires_action.json': { refund: { status: 'Pending', connectorRefundId: RE } },
  'refund.succeeded.json': { refund: { status: 'Succeeded', connectorRefundId: RE } },
  'refund_list.empty.json': { items: [] },
  'refund_list.page1.json': {
    items: [
      { status: 'Succeeded', connectorRefundId: 're_3OzKx2LkdIwHu7ix1OtHeR02' },
      { status: 'Succeeded', connectorRefundId: 're_3OzKx2LkdIwHu7ix1OtHeR01' },
    ],
  },
  'refund_list.page2.json': { items: [{ status: 'Succeeded', connectorRefundId: RE }] },
  'search_result.empty.json': { items: [] },
  'search_result.found.json': { items: [paymentOf('Succeeded', { amountCaptured: 150000 }).payment] },
};

/** `verifyCredentials` of an adapter whose `GET /v1/balance` answers `balance` (a one-request loopback server). */
async function verifyCredentialsAgainst(balance: unknown): Promise<'resolved'> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    res.writeHead(req.method === 'GET' && req.url === '/v1/balance' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(balance));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as { port: number }).port;
    await new StripeConnector({
      baseUrl: `http://127.0.0.1:${port}`,
      secretKey: 'sk_test_contract',
      webhookSecret: '',
    }).verifyCredentials();
    return 'resolved';
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Runs one fixture through the adapter's mapping, the way the adapter meets that kind of body. */
async function outcomeOf(file: string, expected: Outcome): Promise<unknown> {
  const body = fixture(file);
  if ('payment' in expected) return { payment: paymentResultFromIntent(body as unknown as StripePaymentIntent) };
  if ('refund' in expected) return { refund: refundResultFromRefund(body as unknown as StripeRefund) };
  if ('items' in expected) {
    const list = body as unknown as StripeList<StripePaymentIntent | StripeRefund>;
    return { items: list.data.map((item) => (item.object === 'refund' ? refundResultFromRefund(item) : paymentResultFromIntent(item))) };
  }
  if ('webhook' in expected) {
    const rawBody = readFileSync(join(FIXTURES, file), 'utf8');
    return { webhook: await adapterForWebhooks().parseWebhook({ rawBody, headers: signed(rawBody) }) };
  }
  if ('error' in expected) {
    return {
      error: { status: expected.error.status, code: stripeErrorOf(expected.error.status, body).code, decline: declineFromErrorBody(body) },
    };
  }
  const resources = (body as { resources: Record<string, Record<string, unknown>> }).resources;
  const eventBody = JSON.stringify(resources.event);
  return {
    openapi: {
      payment_intent: paymentResultFromIntent(resources.payment_intent as unknown as StripePaymentIntent),
      refund: refundResultFromRefund(resources.refund as unknown as StripeRefund),
      payment_method: resources.payment_method!.id,
      event: await adapterForWebhooks().parseWebhook({ rawBody: eventBody, headers: signed(eventBody) }),
    },
  };
}

describe("(b) every documented response sample runs through the adapter's mapping with an asserted outcome", () => {
  test('every fixture file of test/connectors/fixtures/stripe has an expected outcome here', () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
    expect(Object.keys(EXPECTED).sort()).toEqual(files.sort());
  });

  test("the credential check's answer: the OpenAPI fixtures' `balance` (openapi-fixtures3/balance.extract.json) is a Balance object, and verifyCredentials resolves on it", async () => {
    const extract = fixture('openapi-fixtures3/balance.extract.json') as {
      source: Record<string, string>;
      resources: { balance: unknown };
    };
    expect(extract.source).toMatchObject({ repository: 'github.com/stripe/openapi', path: 'openapi/fixtures3.json' });
    expect(isStripeBalance(extract.resources.balance)).toBe(true);
    await expect(verifyCredentialsAgainst(extract.resources.balance)).resolves.toBe('resolved');
    expect(isStripeBalance(fixture('payment_intent.succeeded.json'))).toBe(false);
  });

  test('the OpenAPI extract names its source and holds the objects Stripe documents', () => {
    const extract = fixture('openapi.fixtures3.extract.json') as {
      source: Record<string, string>;
      resources: Record<string, { object: string }>;
    };
    expect(extract.source).toMatchObject({
      repository: 'github.com/stripe/openapi',
      path: 'openapi/fixtures3.json',
      commit: 'f6c2a48fbac2819d1feba8143d942ffc65e1c0d2',
    });
    expect(Object.fromEntries(Object.entries(extract.resources).map(([k, v]) => [k, v.object]))).toEqual({
      payment_intent: 'payment_intent',
      payment_method: 'payment_method',
      refund: 'refund',
      event: 'event',
    });
  });

  test.each(Object.entries(EXPECTED))('%s', async (file, expected) => {
    await expect(outcomeOf(file, expected)).resolves.toEqual(expected);
  });

  test('the documented PaymentMethod sample drives the intent: an authorize against it sends its id as payment_method', async () => {
    const pm = (fixture('openapi.fixtures3.extract.json').resources as Record<string, { id: string }>).payment_method!;
    const sent: Array<{ url: string; body: string }> = [];
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8');
      });
      req.on('end', () => {
        sent.push({ url: req.url ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.url === '/v1/payment_methods' ? pm : fixture('payment_intent.succeeded.json')));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const adapter = new StripeConnector({
        baseUrl: `http://127.0.0.1:${port}`,
        secretKey: 'sk_test_contract',
        webhookSecret: WEBHOOK_SECRET,
      });
      await expect(adapter.authorize(authorizeRequest('pay_contract_pm'))).resolves.toMatchObject({ status: 'Succeeded' });
      expect(sent.map((s) => s.url)).toEqual(['/v1/payment_methods', '/v1/payment_intents']);
      expect(new URLSearchParams(sent[1]!.body).get('payment_method')).toBe(pm.id);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
