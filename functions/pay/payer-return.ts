import { htmlHandler } from '../../shared/http/html-handler';
import { publicBaseUrl } from '../../shared/http/public-base-url';
import { pageDeadline, resultPage } from '../../shared/http/payer-pages';
import { merchantReturnLocation, payerReturn } from '../../shared/operations/payer-page-operations';

/**
 * `GET /pay/{payment_id}/return` (public): where every processor sends the payer back (after 3DS,
 * a hosted page or a step). Syncs the payment with its processor, then redirects (303) to the
 * merchant's `return_url` with `payment_id` and `status` in the query, or shows a plain result
 * page when the payment has none. The merchant must still trust only its own API read (or the
 * webhook), never the query, for fulfilment.
 */
export const handler = htmlHandler(async (event, context) => {
  const payment = await payerReturn(event.pathParameters?.payment_id ?? '', pageDeadline(context), publicBaseUrl(event));
  const location = merchantReturnLocation(payment);
  if (location) return { statusCode: 303, headers: { location }, html: '<!doctype html><p>Returning to the merchant.</p>' };
  return { html: resultPage(payment) };
});
