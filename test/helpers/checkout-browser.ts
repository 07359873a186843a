/**
 * A browser without JavaScript for the hosted pages' HTTP tests: a cookie jar and redirects followed by hand, plus
 * the hidden fields of a drawn checkout form, a sandbox card as the form posts it, and the sandbox page's form.
 */
import { randomBytes } from 'node:crypto';
import { CSRF_COOKIE, csrfToken } from '../../shared/http/checkout-csrf';
import { sandboxPageCsrfToken } from '../../shared/http/sandbox-page';

/** A browser without JavaScript: a cookie jar, manual redirects. */
export class Browser {
  cookies = new Map<string, string>();

  /** GET with the jar's cookies; keeps the cookies the answer sets. */
  async get(url: string): Promise<Response> {
    const res = await fetch(url, { redirect: 'manual', headers: this.cookieHeader() });
    this.keep(res);
    return res;
  }

  /** A form POST (`application/x-www-form-urlencoded`) with the jar's cookies. */
  async post(url: string, form: Record<string, string>): Promise<Response> {
    const res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.cookieHeader() },
      body: new URLSearchParams(form).toString(),
    });
    this.keep(res);
    return res;
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  private keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = (pair as string).split('=');
      this.cookies.set(name as string, value as string);
    }
  }
}

/** The hidden fields of a drawn checkout form (its CSRF token and attempt id); throws when either is missing. */
export function checkoutHidden(html: string): { csrf_token: string; attempt: string } {
  const csrf = /name="csrf_token" value="([0-9a-f]{64})"/.exec(html)?.[1];
  const attempt = /name="attempt" value="([0-9a-f]{32})"/.exec(html)?.[1];
  if (!csrf || !attempt) throw new Error('the page has no checkout form');
  return { csrf_token: csrf, attempt };
}

/** A sandbox card as the checkout form posts it, expiring two years ahead. */
export const cardForm = (number: string) => ({
  card_name: 'Ada Obi',
  card_number: number,
  card_exp_month: '12',
  card_exp_year: String(new Date().getUTCFullYear() + 2),
  card_cvc: '123',
});

/**
 * A CSRF cookie and the matching token of a payer step page's form (`/pay/{payment_id}/authenticate`), as the page
 * would have set and written them: for tests that post the form without drawing the page first.
 * @returns the `cookie` request header and the `csrf_token` form field
 */
export async function stepFormCsrf(paymentId: string): Promise<{ cookie: string; csrf_token: string }> {
  const value = randomBytes(16).toString('hex');
  return { cookie: `${CSRF_COOKIE}=${value}`, csrf_token: await csrfToken(value, paymentId) };
}

/** The CSRF token a drawn page wrote into its form (the sandbox page's, a step page's); throws when there is none. */
export function formCsrfToken(html: string): string {
  const csrf = /name="csrf_token" value="([0-9a-f]{64})"/.exec(html)?.[1];
  if (!csrf) throw new Error('the page has no form with a CSRF token');
  return csrf;
}

/**
 * The request of a sandbox hosted page's form as a payer's browser sends it: the page is drawn first (GET, no
 * cookie), then its decision is posted with the cookie the page set and the token it wrote.
 * @returns `fetch` options: POST, the form body and the `cookie` header
 */
export async function sandboxPageDecision(url: string, decision: 'approve' | 'decline'): Promise<RequestInit> {
  const page = await fetch(url);
  const cookie = (page.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
  const csrf = formCsrfToken(await page.text());
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ csrf_token: csrf, decision }).toString(),
  };
}

/**
 * A CSRF cookie and the matching token of a sandbox hosted page's form, as the page would have set and written them:
 * for posts to a page that shows no form (a payment waiting on another step).
 * @returns the `cookie` request header and the `csrf_token` form field
 */
export async function sandboxPageCsrf(kind: '3ds' | 'checkout', paymentId: string): Promise<{ cookie: string; csrf_token: string }> {
  const value = randomBytes(16).toString('hex');
  return { cookie: `${CSRF_COOKIE}=${value}`, csrf_token: await sandboxPageCsrfToken(value, kind, paymentId) };
}
