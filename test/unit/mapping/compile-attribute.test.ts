import { describe, expect, it } from 'vitest';
import { fieldPredicates, MAX_DEPTH } from '../../../src/mapping/compile-attribute.js';
import { compileMapping, loadMapping, MappingError } from '../../../src/mapping/load-mapping.js';
import { thrown } from '../../support/thrown.js';

const LV2 = 'http://lv2plug.in/ns/lv2core#';

/** A one-type mapping whose `things` type has the attribute `value` as `attribute`. */
const withAttribute = (attribute: unknown) => ({
  prefixes: { ex: 'http://example.org/', xsd: 'http://www.w3.org/2001/XMLSchema#' },
  types: { things: { class: 'ex:Thing', id: { hex: true }, attributes: { value: attribute } } },
});

/** `depth` levels of fields, each named `f`, the innermost a plain predicate. */
const nested = (depth: number): unknown =>
  depth === 0 ? 'ex:leaf' : { predicate: 'ex:p', fields: { f: nested(depth - 1) } };

describe('compileAttribute: structured attributes', () => {
  it('compiles fields at every level, with their own datatype, language and many', async () => {
    const mapping = await loadMapping('test/fixtures/mappings/lv2-structured.yaml');
    const ports = mapping.types.get('plugins')!.attributes.get('ports')!;
    expect(ports).toMatchObject({ predicate: `${LV2}port`, many: true });
    expect([...ports.fields!.keys()]).toEqual([
      'classes',
      'index',
      'symbol',
      'name',
      'default',
      'minimum',
      'maximum',
      'unit',
      'scale-points',
    ]);
    expect(ports.fields!.get('index')).toMatchObject({ datatype: 'http://www.w3.org/2001/XMLSchema#integer' });
    expect(ports.fields!.get('name')).toMatchObject({ language: '*' });
    expect(ports.fields!.get('scale-points')!.fields!.get('value')).toMatchObject({
      predicate: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#value',
      many: false,
    });
    expect(fieldPredicates(ports)).toContain('http://www.w3.org/2000/01/rdf-schema#label');
    expect(fieldPredicates(ports)).toHaveLength(11);
    expect(fieldPredicates(mapping.types.get('plugins')!.attributes.get('name')!)).toEqual([]);
  });

  it(`nests ${MAX_DEPTH} deep, not more`, () => {
    expect(() => compileMapping(withAttribute(nested(MAX_DEPTH)), 'm.yaml')).not.toThrow();
    expect(thrown(MappingError, () => compileMapping(withAttribute(nested(MAX_DEPTH + 1)), 'm.yaml')).problems).toEqual(
      [
        `types.things.attributes.value.fields.f.fields.f.fields.f.fields: structured attributes nest at most ${MAX_DEPTH} deep`,
      ],
    );
  });

  it.each([
    [
      { predicate: 'ex:p', datatype: 'xsd:string', fields: { a: 'ex:a' } },
      'types.things.attributes.value: a structured attribute (fields) has no datatype or language of its own; give them to its fields',
    ],
    [
      { predicate: 'ex:p', language: 'en', fields: { a: 'ex:a' } },
      'types.things.attributes.value: a structured attribute (fields) has no datatype or language of its own; give them to its fields',
    ],
    [{ predicate: 'ex:p', fields: {} }, 'types.things.attributes.value.fields: expected at least one field'],
    [
      { predicate: 'ex:p', fields: { links: 'ex:a' } },
      "types.things.attributes.value.fields.links: JSON:API forbids 'links' inside an attribute's value",
    ],
    [
      { predicate: 'ex:p', fields: { 'a b': 'ex:a' } },
      "types.things.attributes.value.fields.a b: 'a b' is not a JSON:API member name (letters, digits, - and _, not at either end)",
    ],
    [
      { predicate: 'ex:p', fields: { a: 'nope:a' } },
      "types.things.attributes.value.fields.a.predicate: 'nope:a' is neither a known prefixed name (prefixes: ex, xsd) nor an absolute IRI",
    ],
  ])('refuses %j', (attribute, problem) => {
    expect(thrown(MappingError, () => compileMapping(withAttribute(attribute), 'm.yaml')).problems).toEqual([problem]);
  });

  it('a field that is no attribute is a schema problem at its key path', () => {
    const error = thrown(MappingError, () =>
      compileMapping(withAttribute({ predicate: 'ex:p', fields: { a: 3 } }), 'm.yaml'),
    );
    expect(error.problems).toEqual([expect.stringMatching(/^types\.things\.attributes\.value/)]);
  });
});
