/**
 * The service's own routes, no capability's: the health check and the API reference (this document, its
 * rendered page and the page's script). Public. Data read by shared/api/routes.ts.
 */
import * as z from 'zod';
import { HealthResource } from '../schemas/health-schema';
import { JSON_ROUTE } from './operation-errors';
import { json } from './operation-metadata';
import { OPENAPI_DOCUMENT_FILE, REDOC_SCRIPT_FILE } from './reference-files';
import type { ApiRoute } from './route-definition';

/** The health check. */
export const HEALTH_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/health',
    entry: 'functions/health/get-health.ts',
    name: 'GetHealth',
    access: 'read',
    auth: false,
    connectors: false,
    answersHead: true,
    openapi: {
      operationId: 'getHealth',
      tag: 'Health',
      summary: 'Check health',
      description: 'Whether the DynamoDB table answers. Needs no api-key.',
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: json(HealthResource, 'The table answers: `{"status": "ok", "dynamodb": "ok", "time"}`.'),
        503: json(HealthResource, 'The table does not answer: `{"status": "unavailable", "dynamodb": "unreachable", "time"}`.'),
      },
      errors: JSON_ROUTE,
    },
  },
];

/** The API reference: the OpenAPI document, its Redoc page and Redoc's script, served by this API. */
export const REFERENCE_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/openapi.json',
    entry: 'functions/docs/openapi-document.ts',
    name: 'OpenApiDocument',
    access: 'none',
    auth: false,
    connectors: false,
    assets: [OPENAPI_DOCUMENT_FILE],
    answersHead: true,
    openapi: {
      operationId: 'getOpenApiDocument',
      tag: 'Reference',
      summary: 'This OpenAPI document',
      description:
        'The OpenAPI 3.1 document of the API (docs/openapi.json), byte for byte. Public; cacheable for 5 minutes, then revalidated by its `ETag`.',
      idempotent: false,
      apiHandler: false,
      errorFormat: 'json',
      responses: {
        200: {
          description: 'The document.',
          content: { kind: 'json', schema: z.record(z.string(), z.unknown()).describe('An OpenAPI 3.1 document.') },
          headers: ['ETag', 'Cache-Control'],
        },
        304: { description: '`If-None-Match` named the current `ETag`.', content: { kind: 'none' }, headers: ['ETag', 'Cache-Control'] },
      },
      errors: { 500: ['internal_error'] },
    },
  },
  {
    method: 'GET',
    path: '/docs',
    entry: 'functions/docs/api-reference.ts',
    name: 'ApiReference',
    access: 'none',
    auth: false,
    connectors: false,
    answersHead: true,
    openapi: {
      operationId: 'getApiReference',
      tag: 'Reference',
      summary: 'API reference page',
      description: 'This document rendered by Redoc, with its script served by this API (no CDN). Public.',
      idempotent: false,
      apiHandler: false,
      errorFormat: 'html',
      responses: {
        200: { description: 'The reference page.', content: { kind: 'html' }, headers: ['Cache-Control'] },
        308: { description: 'Asked for as `/docs/`: to `/docs`.', content: { kind: 'html' }, headers: ['Location'] },
      },
      errors: { 500: ['internal_error'] },
    },
  },
  {
    method: 'GET',
    path: '/docs/redoc.standalone.js',
    entry: 'functions/docs/api-reference-script.ts',
    name: 'ApiReferenceScript',
    access: 'none',
    auth: false,
    connectors: false,
    assets: [REDOC_SCRIPT_FILE],
    answersHead: true,
    openapi: {
      operationId: 'getApiReferenceScript',
      tag: 'Reference',
      summary: "API reference page's script",
      description:
        "Redoc's standalone bundle, served by this API so the reference page loads nothing from a CDN. Cached for a year (`immutable`).",
      idempotent: false,
      apiHandler: false,
      errorFormat: 'json',
      responses: {
        200: { description: 'The script.', content: { kind: 'javascript' }, headers: ['ETag', 'Cache-Control'] },
        304: { description: '`If-None-Match` named the current `ETag`.', content: { kind: 'none' }, headers: ['ETag', 'Cache-Control'] },
      },
      errors: { 500: ['internal_error'] },
    },
  },
];
