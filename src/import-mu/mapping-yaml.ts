import { Document, isMap, isScalar, type YAMLMap } from 'yaml';
import type { Conversion } from './convert-domain.js';

/**
 * The converted mapping as a commented YAML file, in the layout of `mappings/sample.yaml` (one
 * line per attribute and relationship): a header saying where it came from and everything that
 * was not converted, and per type mu's name and resource base when they say something.
 *
 * @example mappingYaml(convertDomain(domain), 'config/resources/domain.json')
 */
export function mappingYaml(conversion: Conversion, source: string): string {
  const doc = new Document(conversion.mapping);
  const header = [
    ` Converted from ${source} (mu-cl-resources) by \`sparql-jsonapi import-mu\`.`,
    ' Reference for every key: docs/mapping.md; moving off mu-cl-resources: docs/mu-cl-resources.md.',
    " Serve it with --filter-syntax mu-cl-resources so that mu front-ends' filters keep working.",
  ];
  if (conversion.skipped.length > 0)
    header.push(' Not converted:', ...conversion.skipped.map((line) => `   - ${line.replaceAll('\n', ' ')}`));
  doc.commentBefore = header.join('\n');
  (doc.get('id', true) as YAMLMap).flow = true;
  const types = doc.get('types', true) as YAMLMap;
  for (const pair of types.items) {
    const name = String(isScalar(pair.key) ? pair.key.value : pair.key);
    const notes = conversion.typeNotes.get(name);
    if (notes && isScalar(pair.key)) pair.key.commentBefore = notes.map((n) => ` ${n}`).join('\n');
    const type = pair.value as YAMLMap;
    for (const section of ['attributes', 'relationships']) {
      const fields = type.get(section, true) as YAMLMap | undefined;
      for (const field of fields?.items ?? []) {
        const note = conversion.fieldNotes.get(`${name}.${String(isScalar(field.key) ? field.key.value : field.key)}`);
        if (isMap(field.value)) field.value.flow = true;
        if (note && (isMap(field.value) || isScalar(field.value))) field.value.comment = ` ${note}`;
      }
    }
  }
  return doc.toString({ lineWidth: 0, flowCollectionPadding: true });
}
