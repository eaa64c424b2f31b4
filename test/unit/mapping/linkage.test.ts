import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { applyEnvironment, ConfigError } from '../../../src/cli/config.js';
import { configFromFlags } from '../../../src/cli/config-flags.js';
import { withLinkage } from '../../../src/mapping/linkage.js';
import { compileMapping, MappingError } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import { thrown } from '../../support/thrown.js';

const SAMPLE = 'mappings/sample.yaml';
/** The sample mapping, with `edit` applied to its parsed YAML first. */
function sample(
  edit: (raw: {
    types: Record<string, { relationships?: Record<string, Record<string, unknown>> }>;
  }) => void = () => {},
): Mapping {
  const raw = parseYaml(readFileSync(SAMPLE, 'utf8'));
  edit(raw);
  return compileMapping(raw, SAMPLE);
}
const linked = (mapping: Mapping) =>
  Object.fromEntries(
    [...mapping.types.values()].flatMap((type) => (type.linkFields ? [[type.name, [...type.linkFields.keys()]]] : [])),
  );

describe('which relationships carry linkage', () => {
  it('none without the setting or a mapping that asks: the types compile without link fields', () => {
    expect(linked(sample())).toEqual({});
    expect(linked(withLinkage(sample(), 'none'))).toEqual({});
  });

  it('to-one: every to-one relationship, no to-many one', () => {
    expect(linked(withLinkage(sample(), 'to-one'))).toEqual({
      'trade-activities': ['origin', 'destination', 'amount'],
      'group-national-agents': ['country'],
      concepts: ['concept-scheme', 'top-concept-of'],
      'aid-activities': ['public-project'],
    });
  });

  it("the mapping's linkage overrides the setting either way, and a link field reads its relationship's predicate", () => {
    const mapping = sample((raw) => {
      raw.types['trade-activities']!.relationships!.concerns!.linkage = true;
      raw.types['trade-activities']!.relationships!.origin!.linkage = false;
    });
    expect(linked(mapping)).toEqual({ 'trade-activities': ['concerns'] });
    expect(linked(withLinkage(mapping, 'to-one'))['trade-activities']).toEqual(['concerns', 'destination', 'amount']);
    const concerns = mapping.types.get('trade-activities')!.linkFields!.get('concerns')!;
    expect(concerns.predicate).toBe('http://linkedeconomy.org/ontology#concerns');
    expect(concerns.link.target.name).toBe('concepts');
  });

  it('a linkage that is no boolean is a mapping problem', () => {
    const error = thrown(MappingError, () =>
      sample((raw) => {
        raw.types.concepts!.relationships!['broader-concepts']!.linkage = 'yes';
      }),
    );
    expect(error.message).toContain('types.concepts.relationships.broader-concepts.linkage: expected true or false');
  });
});

describe('the linkage setting', () => {
  const flags = { mapping: SAMPLE, data: ['data/sample.ttl'] };
  it('--linkage and LINKAGE set the dataset key; a bad value is named', () => {
    expect(configFromFlags({ ...flags, linkage: 'to-one' }, {}).datasets.default!.linkage).toBe('to-one');
    const config = configFromFlags(flags, {});
    expect(config.datasets.default!.linkage).toBeUndefined();
    expect(applyEnvironment(config, { LINKAGE: 'to-one' }).datasets.default!.linkage).toBe('to-one');
    expect(thrown(ConfigError, () => configFromFlags({ ...flags, linkage: 'all' }, {})).message).toBe(
      "--linkage: expected none or to-one, got 'all'",
    );
    expect(thrown(ConfigError, () => applyEnvironment(config, { LINKAGE: 'all' })).message).toBe(
      "LINKAGE: expected none or to-one, got 'all'",
    );
  });
});
