import type { Literal, NamedNode } from '@rdfjs/types';
import type { Expression, Ordering, VariableExpression } from 'sparqljs';
import { XSD_BOOLEAN, XSD_STRING } from '../rdf/vocabulary.js';
import type { Cursor, KeyValue } from '../request/cursor.js';
import { integer, literal, op, str } from './ast.js';
import { textConstant as text } from './comparable.js';
import type { KeyExpression } from './sort-clauses.js';

/**
 * The ORDER BY of a cursor page: the list's order (missing keys last by their `missing` flag, see
 * {@link KeyExpression}), reversed when the page is read from the end.
 *
 * @example keysetOrder(sortClauses(mapping, type, sort, SUBJECT).keys, idSortExpression(type, SUBJECT), false)
 */
export function keysetOrder(keys: readonly KeyExpression[], idExpression: Expression, reversed: boolean): Ordering[] {
  const order: Ordering[] = keys.flatMap((key) => [
    ...(key.missing ? [{ expression: key.missing.variable }] : []),
    { expression: key.value, descending: key.descending },
  ]);
  order.push({ expression: idExpression });
  return order.map((o) => ({ ...o, descending: reversed !== (o.descending ?? false) }));
}

/** Which side of a cursor a list query keeps: the resources after it, or before it. */
export type Side = 'after' | 'before';

/**
 * The FILTER expression that keeps the resources on one side of a cursor, in exactly the order
 * ORDER BY gives them: per key, missing last, then the value (ascending or descending); then the
 * id ascending. It is the lexicographic comparison of the row's tuple with the cursor's, as a
 * chain of IFs: the first key on which the row is later or earlier than the cursor decides, and a
 * row that is neither ties on it, as ORDER BY ties too (no `=`). Not `||`/`&&`: Virtuoso 7.2 drops
 * rows that pass such a FILTER over a grouped sub-select (a walk over 240 items lost one).
 *
 * @example keysetExpression(sortClauses(mapping, type, sort, SUBJECT).keys, idSortExpression(type, SUBJECT), cursor, 'after')
 * // IF(?missing0 = 1, true, IF(?key0 < "2016-01-01Z"^^xsd:date, true, IF(?key0 > "2016-01-01Z"^^xsd:date, false, STR(?s_id) > "7c1e0a42")))
 */
export function keysetExpression(
  keys: readonly KeyExpression[],
  idExpression: Expression,
  cursor: Cursor,
  side: Side,
): Expression {
  const values = [...cursor.values];
  const decisions = keys.flatMap((key) =>
    key.missing ? compareKey(key.missing, key, values.shift() ?? null) : compareId(key, cursor.idValue),
  );
  const idOperator = side === 'after' ? (cursor.inclusive ? '>=' : '>') : cursor.inclusive ? '<=' : '<';
  const kept = (row: Place) => literal(String((row === 'later') === (side === 'after')), XSD_BOOLEAN);
  // Built from the id inwards: IF(decides_j, kept, rest).
  return decisions.reduceRight<Expression>(
    (rest, { when, row }) => (when === false ? rest : op('if', when, kept(row), rest)),
    op(idOperator, idExpression, literal(cursor.idValue)),
  );
}

/** Where a row is against the cursor on one key, when `when` holds (`false`: it never does). */
type Place = 'later' | 'earlier';
type Decision = { readonly when: Expression | false; readonly row: Place };

/** An attribute key, in order: missing values come after every present one, then the values compare. */
function compareKey(missing: VariableExpression, key: KeyExpression, value: KeyValue): Decision[] {
  const [present, absent] = [op('=', missing.variable, integer(0)), op('=', missing.variable, integer(1))];
  if (value === null) return [{ when: present, row: 'earlier' }];
  const [greater, less] = key.descending ? (['<', '>'] as const) : (['>', '<'] as const);
  return [
    { when: absent, row: 'later' },
    { when: compare(greater, key.value, value), row: 'later' },
    { when: compare(less, key.value, value), row: 'earlier' },
  ];
}

/** An `id` sort key: its expression is already a string, and never missing. */
function compareId(key: KeyExpression, idValue: string): Decision[] {
  const [greater, less] = key.descending ? ['<', '>'] : ['>', '<'];
  return [
    { when: op(greater, key.value, text(idValue)), row: 'later' },
    { when: op(less, key.value, text(idValue)), row: 'earlier' },
  ];
}

/**
 * `expression < value` (or `>`), in ORDER BY's order. Strings and IRIs compare as text (STR):
 * Virtuoso compares a MIN/MAX of strings with a string constant wrongly (always greater), but
 * STR() of it rightly. Booleans go by truth value: Oxigraph's `<` on booleans is an error.
 */
function compare(operator: '<' | '>', expression: Expression, value: Literal | NamedNode): Expression | false {
  if (value.termType === 'NamedNode' || value.language !== '' || value.datatype.value === XSD_STRING)
    return op(operator, str(expression), text(value.value));
  if (value.datatype.value === XSD_BOOLEAN) {
    const truth = value.value === 'true' || value.value === '1';
    // false < true: only a true value is greater than false, only a false one less than true.
    if (operator === '>') return truth ? false : expression;
    return truth ? op('!', expression) : false;
  }
  return op(operator, expression, value);
}
