import { z } from 'zod';

/** One term, as mu's delta-notifier sends it (`resourceFormat: "v0.0.1"`); fields beyond these are ignored. */
export const deltaTermSchema = z.object({
  type: z.enum(['uri', 'literal', 'typed-literal', 'bnode']),
  value: z.string(),
  datatype: z.string().optional(),
  'xml:lang': z.string().optional(),
});

/** One inserted or deleted triple; `graph` when the notifier knows it. */
export const deltaTripleSchema = z.object({
  subject: deltaTermSchema.refine((t) => t.type === 'uri' || t.type === 'bnode', {
    error: 'a subject is a uri or a bnode',
  }),
  predicate: deltaTermSchema.refine((t) => t.type === 'uri', { error: 'a predicate is a uri' }),
  object: deltaTermSchema,
  graph: deltaTermSchema.refine((t) => t.type === 'uri', { error: 'a graph is a uri' }).optional(),
});

/** One term of a changed triple (`live/delta-body.ts` reads them with {@link deltaTermSchema}). */
export type DeltaTerm = Readonly<z.infer<typeof deltaTermSchema>>;

/** One changed triple (`live/delta-body.ts` reads them with {@link deltaTripleSchema}). */
export type DeltaTriple = Readonly<z.infer<typeof deltaTripleSchema>>;
