import { z } from 'zod';

/*
 * The shape of a mu-cl-resources `domain.json` (version 0.1), as its README documents it and its
 * reader accepts it: a top-level `version`, `prefixes` and `resources` keyed by API path. Each
 * part is checked on its own (`convert-domain.ts`), so that one odd resource or attribute is
 * reported and skipped rather than failing the whole file. Loose objects: keys this schema does
 * not know are reported by the converter, not refused here.
 */

/** A class or predicate: `"foaf:name"`, `"http://…"`, or mu's `{ "type": "prefix" | "url", "value": … }`. */
const uriSchema = z.union([
  z.string().min(1),
  z.strictObject({ type: z.enum(['prefix', 'url']), value: z.string().min(1) }),
]);
export type MuUri = z.infer<typeof uriSchema>;

export const attributeSchema = z.looseObject({
  type: z.string({ error: 'expected a type name such as string, number or datetime' }).min(1),
  predicate: z.string({ error: 'expected a predicate (foaf:name or a full IRI)' }).min(1),
});

export const relationshipSchema = z.looseObject({
  predicate: uriSchema,
  target: z.string({ error: 'expected the name of a resource of this domain' }).min(1),
  cardinality: z
    .string()
    .refine((c) => ['one', 'many'].includes(c.toLowerCase()), { error: 'expected "one" or "many"' }),
  inverse: z.boolean({ error: 'expected true or false' }).optional(),
});

export const resourceSchema = z.looseObject({
  name: z.string().min(1).optional(),
  path: z.string().min(1).optional(),
  class: uriSchema,
  attributes: z.record(z.string(), z.unknown()).optional(),
  relationships: z.record(z.string(), z.unknown()).optional(),
  features: z.array(z.string()).optional(),
  'new-resource-base': z.string().optional(),
});
export type MuResource = z.infer<typeof resourceSchema>;

export const domainSchema = z.looseObject({
  version: z.string().optional(),
  prefixes: z.record(z.string(), z.string({ error: 'expected a namespace IRI' })).optional(),
  resources: z.record(z.string(), z.unknown(), { error: 'expected an object of resources keyed by API path' }),
});

/** The keys each part's schema declares, the ones the converter reads; any other key is reported as not converted. */
export const KNOWN_KEYS = {
  domain: Object.keys(domainSchema.shape),
  resource: Object.keys(resourceSchema.shape),
  attribute: Object.keys(attributeSchema.shape),
  relationship: Object.keys(relationshipSchema.shape),
};
