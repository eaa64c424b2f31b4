/**
 * How an engine orders and compares text (in ORDER BY, MIN/MAX and `<`), as the start-up engine
 * check finds it (`store/probes/engine-check.ts`): by Unicode code point, as the README promises and
 * most engines do, or by UTF-16 code unit, as engines built on Java strings do (Jena ARQ, so
 * Fuseki). A store carries it (`store/store.ts`); queries are written for it (`sparql/text-key.ts`).
 */
export type TextOrder = 'code point' | 'UTF-16 code units';
