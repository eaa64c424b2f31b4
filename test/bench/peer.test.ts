import { describe, expect, it } from 'vitest';
import { muPath, peerCommand } from '../../bench/peer.js';
import { peerPathOf, SHAPES } from '../../bench/shapes.js';

describe('the peer beside the server', () => {
  const values = { port: 9001, endpoint: 'http://127.0.0.1:8890/sparql', graph: "urn:it's" };

  it('fills the start command’s placeholders, shell-quoted', () => {
    expect(peerCommand('MU_DOMAIN=d.lisp ./start {port} {endpoint} {graph}', values)).toBe(
      `MU_DOMAIN=d.lisp ./start '9001' 'http://127.0.0.1:8890/sparql' 'urn:it'\\''s'`,
    );
    expect(peerCommand('peer --port={port} --port-again={port}', values)).toBe(
      "peer --port='9001' --port-again='9001'",
    );
  });

  it('refuses a command without {port}: the bench picks the port and must find the peer there', () => {
    expect(peerCommand('./start 8080 {endpoint} {graph}', values)).toEqual({
      error: expect.stringContaining('must contain {port}'),
    });
  });

  it('writes the filtered shape in mu’s filter form and leaves other paths as they are', () => {
    expect(muPath('/trade-activities?filter%5Borigin.country.iso-code%5D%5Beq%5D=GR')).toBe(
      '/trade-activities?filter%5Borigin%5D%5Bcountry%5D%5B%3Aexact%3Aiso-code%5D=GR',
    );
    expect(muPath('/trade-activities?filter%5Bfinancial-year%5D%5Beq%5D=2010-01-01Z&page%5Bnumber%5D=2')).toBe(
      '/trade-activities?filter%5B%3Aexact%3Afinancial-year%5D=2010-01-01Z&page%5Bnumber%5D=2',
    );
    expect(muPath('/trade-activities/abc')).toBe('/trade-activities/abc');
    expect(muPath('/trade-activities?sort=concerns.label&page%5Bnumber%5D=3')).toBe(
      '/trade-activities?sort=concerns.label&page%5Bnumber%5D=3',
    );
  });

  it('has every shape but the cursor page for the peer, the filtered one in mu’s form', () => {
    const shape = (key: string) => SHAPES.find((s) => s.key === key)!;
    expect(peerPathOf(shape('single'), '/trade-activities/1')).toBe('/trade-activities/1');
    expect(peerPathOf(shape('deep-cursor'), '/trade-activities?page%5Bafter%5D=x')).toEqual({
      na: 'mu-cl-resources has no cursor pages',
    });
    expect(peerPathOf(shape('filtered'), '/trade-activities?filter%5Borigin.country.iso-code%5D%5Beq%5D=DE')).toBe(
      '/trade-activities?filter%5Borigin%5D%5Bcountry%5D%5B%3Aexact%3Aiso-code%5D=DE',
    );
    const withPeer = SHAPES.filter((s) => typeof peerPathOf(s, '/x') === 'string').map((s) => s.key);
    expect(withPeer).toHaveLength(SHAPES.length - 1);
  });
});
