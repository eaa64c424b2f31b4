import { isSafeAbsoluteIri } from './iri.js';
import type { IdSpec } from './mapping-schema.js';
import type { IdStrategy } from './model.js';

/** A type without an id strategy (none of its own, no default): a problem, and a placeholder to go on with. */
export function missingId(at: string, problems: string[]): IdStrategy {
  problems.push(`${at}.id: no id strategy; set one here or a default under the top-level id key`);
  return { kind: 'hex', base: '' };
}

/**
 * A type's id strategy (`predicate`, `template`, `local` or `hex`), its terms expanded and its IRIs
 * checked; what is wrong goes to `problems`, under `path`.
 *
 * @example compileId({ hex: { base: 'http://example.org/thing/' } }, 'id', expand, problems) // { kind: 'hex', base: 'http://example.org/thing/' }
 */
export function compileId(
  spec: IdSpec,
  path: string,
  expand: (v: string, p: string) => string,
  problems: string[],
): IdStrategy {
  if ('predicate' in spec)
    return Object.freeze({ kind: 'predicate', predicate: expand(spec.predicate, `${path}.predicate`) });
  if ('template' in spec) {
    const parts = spec.template.split('{id}');
    const [prefix = '', suffix = ''] = parts;
    if (parts.length !== 2 || !isSafeAbsoluteIri(`${prefix}0${suffix}`)) {
      problems.push(`${path}.template: expected an absolute IRI with exactly one {id}, got '${spec.template}'`);
    }
    return Object.freeze({ kind: 'template', prefix, suffix });
  }
  if ('local' in spec) {
    if (!isSafeAbsoluteIri(spec.local.base))
      problems.push(`${path}.local.base: expected an absolute IRI, got '${spec.local.base}'`);
    return Object.freeze({ kind: 'local', base: spec.local.base });
  }
  const base = spec.hex === true ? '' : spec.hex.base;
  if (base !== '' && !isSafeAbsoluteIri(base))
    problems.push(`${path}.hex.base: expected an absolute IRI, got '${base}'`);
  return Object.freeze({ kind: 'hex', base });
}
