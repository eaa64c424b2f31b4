/** What a resource's id sorts by in a list query: the id's text, as a text key. */
import type { Expression, VariableTerm } from 'sparqljs';
import { sortsByIdText } from '../mapping/ids.js';
import type { ResourceType } from '../mapping/model.js';
import { integer, op, str } from './ast.js';
import { idVariable } from './members.js';
import { textKey } from './text-key.js';

/**
 * The expression a resource's id sorts by (`mapping/ids.ts` sortsByIdText): the id's text, or the
 * IRI's (`hex` ids sort like their IRIs, hex of UTF-8 bytes keeping code point order, and so do
 * template ids without a suffix); STR() because Virtuoso does not order by an IRI's text otherwise.
 * A text key (`text-key.ts`), in code point order on every engine.
 */
export function idSortExpression(type: ResourceType, subject: VariableTerm): Expression {
  return textKey(idText(type, subject));
}

/** The text a resource's id sorts by ({@link idSortExpression}), as text: what a grouped query's MIN of it holds. */
export function idText(type: ResourceType, subject: VariableTerm): Expression {
  const id = type.id;
  if (id.kind === 'predicate') return str(idVariable(subject));
  if (id.kind === 'template' && sortsByIdText(id)) {
    const text = str(subject);
    return op(
      'substr',
      text,
      integer(id.prefix.length + 1),
      op('-', op('strlen', text), integer(id.prefix.length + id.suffix.length)),
    );
  }
  return str(subject);
}
