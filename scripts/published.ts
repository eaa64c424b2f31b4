/**
 * How much of a dataset an API publishes: of the triples whose subject has an `rdf:type` in the
 * data, or is a blank node reached from such a subject, how many a client can read from the API,
 * as an attribute value, a nested value of a structured attribute, a relationship (either
 * direction) or a resource's type; the rest by predicate, most first.
 *
 *   npx tsx scripts/published.ts FILE… [--mapping M]      (default: the mapping `serve` scaffolds)
 *
 * It reads the mapping's rules, not the API's answers: a resource is a member of a type when it
 * has the type's class and an id under its id strategy (test/support/oracle.ts, the suites'
 * oracle); an attribute publishes the values it shows (one value without `many`, its language's
 * tier with `language`, `shape/resource-objects.ts`), a relationship the triples to members of its
 * target type, a structured attribute its nodes' fields as values again.
 */

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Term } from '@rdfjs/types';
import { Store as N3Store, Parser } from 'n3';
import { compileMapping, loadMapping } from '../src/mapping/load-mapping.js';
import type { Attribute, Mapping } from '../src/mapping/model.js';
import { scaffoldMapping } from '../src/scaffold/scaffold.js';
import { shownValues } from '../src/shape/resource-objects.js';
import { createOxigraphStore } from '../src/store/oxigraph-store.js';
import { Oracle } from '../test/support/oracle.js';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const { values: options, positionals: files } = parseArgs({
  options: { mapping: { type: 'string' } },
  allowPositionals: true,
});
const quads = new N3Store(files.flatMap((file) => new Parser().parse(readFileSync(file, 'utf8'))));
const mapping = options.mapping ? await loadMapping(options.mapping) : await scaffolded(files);
const oracle = Oracle.fromFile(files, mapping);

/** The mapping `serve --data FILE…` scaffolds. */
async function scaffolded(files: readonly string[]): Promise<Mapping> {
  const store = await createOxigraphStore({ files: [...files] });
  try {
    return compileMapping((await scaffoldMapping(store, { files, description: files.join(' ') })).mapping, 'scaffold');
  } finally {
    await store.close();
  }
}

const key = (s: Term, p: string, o: Term) =>
  `${s.termType}:${s.value} ${p} ${o.termType}:${o.value}:${'language' in o ? o.language : ''}:${'datatype' in o ? o.datatype.value : ''}`;
const published = new Set<string>();
const members = new Map<string, Set<string>>(); // type name → member IRIs
for (const type of mapping.types.values()) members.set(type.name, new Set(oracle.members(type.name).map((m) => m.iri)));

/** Marks the values `attribute` shows of `subject` (a member, or a node of a structured attribute) as published. */
function publishAttribute(subject: Term, attribute: Attribute): void {
  const values = quads.getObjects(subject, attribute.predicate, null);
  if (attribute.fields) {
    for (const node of values.filter((v) => v.termType !== 'Literal')) {
      published.add(key(subject, attribute.predicate, node));
      for (const field of attribute.fields.values()) publishAttribute(node, field);
    }
    return;
  }
  const shown = shownValues(attribute, values);
  // Without `many` one value shows: the least, whichever it is, so count one.
  for (const value of attribute.many || attribute.language === '*' ? shown : shown.slice(0, 1))
    published.add(key(subject, attribute.predicate, value));
}

for (const type of mapping.types.values()) {
  for (const iri of members.get(type.name)!) {
    const subject = quads.getSubjects(RDF_TYPE, type.classIri, null).find((s) => s.value === iri)!;
    published.add(
      key(subject, RDF_TYPE, quads.getObjects(subject, RDF_TYPE, null).find((c) => c.value === type.classIri)!),
    );
    for (const attribute of type.attributes.values()) publishAttribute(subject, attribute);
    for (const relationship of type.relationships.values()) {
      const targets = members.get(relationship.target)!;
      if (relationship.inverse) {
        for (const from of quads.getSubjects(relationship.predicate, subject, null))
          if (targets.has(from.value)) published.add(key(from, relationship.predicate, subject));
      } else {
        for (const to of quads.getObjects(subject, relationship.predicate, null))
          if (targets.has(to.value)) published.add(key(subject, relationship.predicate, to));
      }
    }
  }
}

// The triples in scope: of a typed subject, and of the blank nodes reached from one.
const inScope: { s: Term; p: string; o: Term }[] = [];
const seen = new Set<string>();
const visit = (subject: Term) => {
  const id = `${subject.termType}:${subject.value}`;
  if (seen.has(id)) return;
  seen.add(id);
  for (const quad of quads.getQuads(subject, null, null, null)) {
    inScope.push({ s: quad.subject, p: quad.predicate.value, o: quad.object });
    if (quad.object.termType === 'BlankNode') visit(quad.object);
  }
};
for (const subject of quads.getSubjects(RDF_TYPE, null, null)) visit(subject);

const missing = new Map<string, number>();
let shown = 0;
for (const { s, p, o } of inScope) {
  if (published.has(key(s, p, o))) shown++;
  else missing.set(p, (missing.get(p) ?? 0) + 1);
}
const percent = ((100 * shown) / inScope.length).toFixed(1);
console.log(
  `${files.join(' ')}: ${shown} of ${inScope.length} triples in scope published (${percent} %), ${mapping.types.size} types`,
);
for (const [p, n] of [...missing].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  not published: ${n}\t${p}`);
