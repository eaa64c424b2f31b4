import { z } from 'zod';
import { LANGUAGE_TAG } from '../rdf/vocabulary.js';

/**
 * The shape of a mapping file as written (before prefixes are expanded and names cross-checked).
 * docs/mapping.md documents every key; keep the two in step.
 */
const term = z.string({ error: 'expected a prefixed name (skos:broader) or an absolute IRI' }).min(1);

const idSchema = z.union(
  [
    z.strictObject({ predicate: term }),
    z.strictObject({ template: z.string().min(1) }),
    z.strictObject({ hex: z.union([z.literal(true), z.strictObject({ base: z.string().min(1) })]) }),
    z.strictObject({ local: z.strictObject({ base: z.string().min(1, { error: 'expected an absolute IRI' }) }) }),
  ],
  {
    error:
      'expected { predicate: P }, { template: "…{id}…" }, { hex: true }, { hex: { base: IRI } } or { local: { base: IRI } }',
  },
);

/** An attribute as written: a predicate, or an object; `fields` makes it structured (docs/mapping.md). */
export interface AttributeSpec {
  predicate: string;
  datatype?: string | undefined;
  language?: string | undefined;
  strictLanguage?: boolean | undefined;
  many?: boolean | undefined;
  fields?: Record<string, string | AttributeSpec> | undefined;
}

const attributeObject: z.ZodType<AttributeSpec> = z.strictObject({
  predicate: term,
  datatype: term.optional(),
  language: z
    .string()
    .refine((tag) => tag === '*' || LANGUAGE_TAG.test(tag), "expected a language tag such as en or pt-BR, or '*'")
    .optional(),
  strictLanguage: z.boolean().optional(),
  many: z.boolean().optional(),
  get fields() {
    return z.record(z.string(), attributeSchema, { error: 'expected a map of field names to attributes' }).optional();
  },
});

const attributeSchema: z.ZodType<string | AttributeSpec> = z.union([term, attributeObject], {
  error: 'expected a predicate, or { predicate, datatype?, language?, strictLanguage?, many?, fields? }',
});

const relationshipSchema = z.strictObject({
  predicate: term,
  target: z.string({ error: 'expected the name of a type of this mapping' }),
  cardinality: z.enum(['one', 'many'], { error: 'expected one or many' }),
  inverse: z.boolean().optional(),
  // Resource linkage (`data`) in this relationship's objects: overrides the dataset's `linkage`.
  linkage: z.boolean({ error: 'expected true or false' }).optional(),
});

const typeSchema = z.strictObject({
  class: term,
  id: idSchema.optional(),
  defaultSort: z.array(z.string()).optional(),
  attributes: z.record(z.string(), attributeSchema).optional(),
  relationships: z.record(z.string(), relationshipSchema).optional(),
});

export const mappingSchema = z.strictObject({
  prefixes: z.record(z.string(), z.string()).optional(),
  id: idSchema.optional(),
  types: z.record(z.string(), typeSchema, { error: 'expected a map of type names to type definitions' }),
});

export type MappingFile = z.infer<typeof mappingSchema>;
export type IdSpec = z.infer<typeof idSchema>;
