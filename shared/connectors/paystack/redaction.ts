/**
 * Keeping a payer's PIN and OTP out of what the adapter keeps or throws: the secrets of an authentication answer,
 * and their removal from Paystack's free-text fields should Paystack echo one.
 *
 * Source: the submit steps' answers ([OAS] PaystackOSS/openapi paths/charge_submit_*.yaml; [DCS] src/api/charges/
 * submit-{pin,otp,phone,birthday,address}/response.json), whose `message`, `gateway_response` and `display_text` are free text.
 */
import type { AuthenticateRequest } from '../connector';

/**
 * The secrets of an authentication answer (PIN, OTP): an adapter removes them from any text it keeps
 * or throws (a processor's error message that would echo one).
 * @returns the non-empty PIN/OTP values of the request
 */
export function authenticationSecrets(request: AuthenticateRequest): string[] {
  return [request.pin, request.otp].filter((v): v is string => typeof v === 'string' && v.length > 0);
}

/** `text` with every occurrence of each secret replaced by `[REDACTED]`. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((t, secret) => t.split(secret).join('[REDACTED]'), text);
}

/** The free-text fields of Paystack's answers that we keep or show (messages, prompts): the only ones scrubbed. */
const PAYSTACK_TEXT_FIELDS: ReadonlySet<string> = new Set(['message', 'gateway_response', 'display_text']);

/**
 * A parsed JSON value with {@link withoutSecrets} applied to its free-text fields (`message`,
 * `gateway_response`, `display_text`, at any depth), so nothing derived from a processor's answer (a
 * message, a code slugged from it, a prompt) can carry a PIN or OTP the processor echoed. Identifiers
 * (`reference`, URLs, account numbers, USSD codes) are left exactly as Paystack sent them: a PIN's
 * digits can occur inside a reference by chance, and rewriting it would point later calls elsewhere.
 */
export function jsonWithoutSecrets<T>(value: T, secrets: readonly string[], key?: string): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return (key !== undefined && PAYSTACK_TEXT_FIELDS.has(key) ? withoutSecrets(value, secrets) : value) as T;
  if (Array.isArray(value)) return value.map((v) => jsonWithoutSecrets(v, secrets, key)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonWithoutSecrets(v, secrets, k)]),
    ) as T;
  }
  return value;
}
