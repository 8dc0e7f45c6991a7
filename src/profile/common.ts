// Fields every section of a profile shares: an annotation, and the URLs a profile names.
import { z } from 'zod';

/** Annotation allowed in every object of a profile (JSON has no comments). */
export const comment = { $comment: z.string().optional() };

export const httpUrl = z
  .string()
  .regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) URL')
  .describe('Absolute URL');

export const baseUrl = httpUrl.refine((u) => /\/v1\/?$/.test(u), 'must end in the version segment /v1');
