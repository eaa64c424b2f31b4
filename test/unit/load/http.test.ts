import { describe, expect, test } from 'vitest';
import { bodyExcerpt } from '../../../src/load/http.js';

describe('bodyExcerpt', () => {
  test('error bodies: HTML stripped, cut at ~300 characters', () => {
    expect(
      bodyExcerpt('<html><head><title>T</title></head><body><h1>Forbidden</h1>\n<xmp>SR575</xmp></body></html>'),
    ).toBe('T Forbidden SR575');
    expect(bodyExcerpt('x'.repeat(400))).toHaveLength(301);
  });
});
