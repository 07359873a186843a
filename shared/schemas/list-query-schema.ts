import * as z from 'zod';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_OFFSET_MAX, type ListQuery } from '../domain/list-query';
import { WELL_FORMED_TEXT, WELL_FORMED_TEXT_MESSAGE } from '../domain/well-formed-text';
import { NO_CARD_NUMBERS, noCardNumberInId } from './card-number-refinement';

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?)?$/;

/** Days in a month of the proleptic Gregorian calendar (`month` 1–12). */
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Whether the fields of an ISO 8601 form name a real instant: month 01–12, a day that exists in that
 * month (`2026-02-30` and `2026-04-31` do not; `2028-02-29` does), hour 00–23 (or `24:00` exactly,
 * the end of the day), minute and second 00–59, offset hours 00–23 and minutes 00–59. `Date.parse`
 * would roll an impossible day over into the next month instead.
 */
function isCalendarValid(m: RegExpExecArray): boolean {
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (m[4] !== undefined) {
    const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
    const endOfDay = hour === 24 && minute === 0 && second === 0 && !/[1-9]/.test(m[7] ?? '');
    if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) return false;
    if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  }
  return true;
}

/**
 * Unix seconds, or a string starting with a date that exists in the proleptic Gregorian calendar: 29
 * February only in a leap year (divisible by 4, and by 400 for a century), 30 days in April, June,
 * September and November. The rest of the form (time and offset) is checked by {@link ISO_8601} and
 * {@link isCalendarValid}. Being a second zod `regex` check beside {@link WELL_FORMED_TEXT}, it is
 * written into the OpenAPI document as an `allOf` of both patterns next to the `created[…]` pattern
 * of scripts/openapi.ts (which states the field ranges), so the document refuses `2026-02-30` too.
 */
const CALENDAR_DATE =
  /^(?:\d{1,11}|(?:\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))|(?:\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)(?:T.*)?)$/u;

const TIMESTAMP_MESSAGE = 'must be an ISO 8601 timestamp (2026-11-21T10:00:00Z) of a real calendar date and time, or Unix seconds';

/**
 * A point in time given as ISO 8601 (`2026-11-21T10:00:00Z`, a date alone means
 * midnight UTC) or as Unix seconds (`1763719200`); normalized to ISO 8601 UTC with
 * milliseconds, the form `created_at` is stored in. A date or time that does not exist
 * (`2026-02-30`, `25:00`) is refused, never rolled over.
 */
export const timestampParamSchema = z
  .string()
  .regex(WELL_FORMED_TEXT, { error: WELL_FORMED_TEXT_MESSAGE })
  .regex(CALENDAR_DATE, { error: TIMESTAMP_MESSAGE })
  .transform((raw, ctx) => {
    let ms: number;
    const iso = ISO_8601.exec(raw);
    if (/^\d{1,11}$/.test(raw)) ms = Number(raw) * 1000;
    // A written year before 1970 is refused even when its offset moves the instant past the epoch, as the spec's pattern says.
    else if (iso && Number(iso[1]) >= 1970 && isCalendarValid(iso))
      ms = Date.parse(/T/.test(raw) && !/(Z|[+-]\d{2}:?\d{2})$/.test(raw) ? `${raw}Z` : raw);
    else ms = Number.NaN;
    if (!Number.isFinite(ms) || ms < 0 || ms > Date.UTC(9999, 11, 31)) {
      ctx.addIssue({ code: 'custom', message: TIMESTAMP_MESSAGE });
      return z.NEVER;
    }
    return new Date(ms).toISOString();
  });

const integerParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, { error: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );

/** The paging/range parameters every list shares, once validated. */
interface BaseListParams {
  limit?: number;
  offset?: number;
  starting_after?: string;
  ending_before?: string;
  created?: { gt?: string; gte?: string; lt?: string; lte?: string };
}

const CREATED_KEY = /^created(?:\[(gt|gte|lt|lte)\]|\.(gt|gte|lt|lte))$/;

/**
 * Moves `created[gte]=…` and `created.gte=…` query keys into a nested `created`
 * object so one schema validates both spellings. Other keys pass through.
 * @param raw API Gateway's `queryStringParameters` (may be undefined)
 */
export function nestCreatedParams(raw: Record<string, string | undefined> | undefined): Record<string, unknown> {
  // No prototype: a `__proto__` parameter stays a key (refused as unknown), not a prototype assignment.
  const out: Record<string, unknown> = Object.create(null);
  const created: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw ?? {})) {
    if (value === undefined) continue;
    const m = CREATED_KEY.exec(key);
    if (m) {
      // One bound in both spellings is a repeated parameter: joined with a comma, as API Gateway joins
      // a repeated name (and so refused), never one silently dropped.
      const bound = (m[1] ?? m[2]) as string;
      created[bound] = created[bound] === undefined ? value : `${created[bound]},${value}`;
    } else out[key] = value;
  }
  // A bare `created=` beside `created[gte]` is kept (and refused: not an object), never overwritten.
  if (Object.keys(created).length > 0 && !Object.hasOwn(out, 'created')) out.created = created;
  return out;
}

/**
 * Schema of a list query: `limit` (1–100, default 20), `offset` (0–10,000),
 * `starting_after` or `ending_before` (an id), `created` range (gt/gte/lt/lte), plus the list's own
 * filters. Unknown parameters are rejected; `offset` with a cursor, and both cursors, are rejected.
 * @param options `endingBefore: false` for a list that pages its own way (a customer's payment methods)
 * @param filters zod shapes of the list's extra filters (e.g. `status`, `email`)
 * @returns a schema whose output is a {@link ListQuery} plus the filters
 */
export function listQuerySchema<F extends z.ZodRawShape>(filters: F, options: { endingBefore?: boolean } = {}) {
  const cursor = z
    .string()
    .min(1)
    .max(100)
    .regex(WELL_FORMED_TEXT, { error: WELL_FORMED_TEXT_MESSAGE })
    .refine(noCardNumberInId, { error: NO_CARD_NUMBERS })
    .optional();
  return z
    .strictObject({
      limit: integerParam(1, LIST_LIMIT_MAX).optional(),
      offset: integerParam(0, LIST_OFFSET_MAX).optional(),
      starting_after: cursor,
      // Stripe's: the page just before an item. Every list but one that pages its own way.
      ...(options.endingBefore === false ? {} : { ending_before: cursor }),
      created: z
        .strictObject({
          gt: timestampParamSchema.optional(),
          gte: timestampParamSchema.optional(),
          lt: timestampParamSchema.optional(),
          lte: timestampParamSchema.optional(),
        })
        .optional(),
      ...filters,
    })
    .superRefine((raw, ctx) => {
      const q = raw as BaseListParams;
      if (q.offset !== undefined && q.starting_after !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['starting_after'],
          message: 'cannot be combined with offset: page with one or the other',
        });
      }
      if (q.ending_before !== undefined && (q.offset !== undefined || q.starting_after !== undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['ending_before'],
          message: 'cannot be combined with offset or starting_after: page with one of them',
        });
      }
    })
    .transform((raw) => {
      const { limit, offset, starting_after, ending_before, created, ...rest } = raw as BaseListParams & Record<string, unknown>;
      const list: ListQuery = {
        limit: limit ?? LIST_LIMIT_DEFAULT,
        ...(offset !== undefined ? { offset } : {}),
        ...(starting_after !== undefined ? { startingAfter: starting_after } : {}),
        ...(ending_before !== undefined ? { endingBefore: ending_before } : {}),
        ...(created ? { created } : {}),
      };
      return { list, filters: rest as { [K in keyof F]?: z.output<F[K]> } };
    });
}
