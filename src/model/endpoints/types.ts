// One documented operation of a spec, as data: the OpenAPI export, route-group
// lookups and coverage checks read this instead of repeating the spec tables.
import type { z } from 'zod';
/** The HTTP methods the specs use. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
import type { RouteGroup } from '../limits.js';

export type Service = 'gate' | 'pools';

/**
 * The credential a route takes, in the specs' words:
 * SK secret key bearer; PK publishable key bearer; 'PK|SK' either;
 * rail SK plus the rail entitlement; 'SK+entitlement' SK plus pools entitlement
 * (enabled, not suspended, KYC approved, pool allowed); embedToken the X-Embed-Token
 * JWT; 'SK|assertion' SK or an account assertion (whose transport is not shown).
 */
export type AuthKind = 'SK' | 'PK' | 'PK|SK' | 'rail' | 'SK+entitlement' | 'embedToken' | 'SK|assertion';

/** required: the spec says so; documented: the route names the header, requiredness not shown; example: only the example sends one. */
export type IdempotencyUse = 'required' | 'documented' | 'example';

export interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  /** The documented constraints (type, enum, bounds, default). */
  schema: z.ZodType;
  description: string;
}

/** A named schema: the name becomes the OpenAPI component. */
export interface NamedSchema {
  name: string;
  schema: z.ZodType;
}

/** none: the spec says no body; notShown: a body may exist, its shape is not shown. */
export type RequestBodySpec = { kind: 'none' } | { kind: 'notShown'; note: string } | { kind: 'json'; body: NamedSchema };

export interface SuccessSpec {
  /** The documented status, or '2XX' where the spec does not give it. */
  status: number | '2XX';
  /** undefined: the response shape is not shown. */
  body?: NamedSchema;
  description: string;
  /** Response headers the spec names on success. */
  headers?: Record<string, string>;
}

export interface ErrorSpec {
  status: number;
  when: string;
}

export interface Endpoint {
  /** Stable operation id (the OpenAPI operationId). */
  id: string;
  service: Service;
  method: HttpMethod;
  /** Template relative to the base address that ends in /v1, e.g. /gate_sessions/{id}. */
  path: string;
  summary: string;
  /** Spec section the row comes from, e.g. "Endpoints > Sessions". */
  section: string;
  auth: AuthKind;
  /** Gate Limits table group, where the table lists the route; undefined otherwise. */
  routeGroup?: RouteGroup;
  idempotencyKey?: { use: IdempotencyUse; uuid: boolean };
  params: Param[];
  request: RequestBodySpec;
  success: SuccessSpec;
  /** Statuses the spec documents for this route (route rules and the general error tables). */
  errors: ErrorSpec[];
  notes?: string[];
}
