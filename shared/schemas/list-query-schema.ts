import * as z from 'zod';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_OFFSET_MAX, type ListQuery } from '../domain/list-query';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A point in time given as ISO 8601 (`2026-11-21T10:00:00Z`, a date alone means
 * midnight UTC) or as Unix seconds (`1763719200`); normalized to ISO 8601 UTC with
 * milliseconds, the form `created_at` is stored in.
 */
export const timestampParamSchema = z.string().transform((raw, ctx) => {
  let ms: number;
  if (/^\d{1,11}$/.test(raw)) ms = Number(raw) * 1000;
  else if (ISO_8601.test(raw)) ms = Date.parse(/T/.test(raw) && !/(Z|[+-]\d{2}:?\d{2})$/.test(raw) ? `${raw}Z` : raw);
  else ms = Number.NaN;
  if (!Number.isFinite(ms) || ms < 0 || ms > Date.UTC(9999, 11, 31)) {
    ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 timestamp (2026-11-21T10:00:00Z) or Unix seconds' });
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
 * `starting_after` (an id), `created` range (gt/gte/lt/lte), plus the list's own
 * filters. Unknown parameters are rejected; `offset` with `starting_after` is rejected.
 * @param filters zod shapes of the list's extra filters (e.g. `status`, `email`)
 * @returns a schema whose output is a {@link ListQuery} plus the filters
 */
export function listQuerySchema<F extends z.ZodRawShape>(filters: F) {
  return z
    .strictObject({
      limit: integerParam(1, LIST_LIMIT_MAX).optional(),
      offset: integerParam(0, LIST_OFFSET_MAX).optional(),
      starting_after: z.string().min(1).max(100).optional(),
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
    })
    .transform((raw) => {
      const { limit, offset, starting_after, created, ...rest } = raw as BaseListParams & Record<string, unknown>;
      const list: ListQuery = {
        limit: limit ?? LIST_LIMIT_DEFAULT,
        ...(offset !== undefined ? { offset } : {}),
        ...(starting_after !== undefined ? { startingAfter: starting_after } : {}),
        ...(created ? { created } : {}),
      };
      return { list, filters: rest as { [K in keyof F]?: z.output<F[K]> } };
    });
}
