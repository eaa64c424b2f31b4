import { open } from 'node:fs/promises';

/** How much of each file is read: prefixes are declared at the top, and a big file is not read whole for them. */
const HEAD_BYTES = 64 * 1024;
/** `@prefix skos: <…> .` and SPARQL-style `PREFIX skos: <…>`, as Turtle and TriG write them. */
const DECLARATION = /(?:@prefix|\bPREFIX)\s+([A-Za-z][\w.-]*)?:\s*<([^<>"{}|^`\\\s]*)>/gi;

/**
 * The prefixes a Turtle or TriG text declares, namespace → name (the first name wins).
 *
 * @example prefixesInText('@prefix skos: <http://www.w3.org/2004/02/skos/core#> .') // { 'http://www.w3.org/2004/02/skos/core#': 'skos' }
 */
export function prefixesInText(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [, name, namespace] of text.matchAll(DECLARATION)) {
    if (name !== undefined && namespace !== undefined && !(namespace in found)) found[namespace] = name;
  }
  return found;
}

/**
 * The prefixes the data files declare in their first 64 KiB (N-Triples and N-Quads declare none),
 * namespace → name: the names the data's publisher chose, which a scaffold reuses.
 *
 * @example await declaredPrefixes(['data/sample.ttl']) // { 'http://linkedeconomy.org/ontology#': 'elod', … }
 */
export async function declaredPrefixes(files: readonly string[]): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const file of files) {
    if (!/\.(ttl|trig|n3)$/i.test(file)) continue;
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      for (const [namespace, name] of Object.entries(prefixesInText(buffer.toString('utf8', 0, bytesRead))))
        found[namespace] ??= name;
    } finally {
      await handle.close();
    }
  }
  return found;
}
