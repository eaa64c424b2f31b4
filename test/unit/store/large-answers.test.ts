import { describe, expect, it } from 'vitest';
import { isLoopback, LARGE_ANSWER_CHARS, LargeAnswers } from '../../../src/store/large-answers.js';

describe('isLoopback', () => {
  it.each([
    ['http://127.0.0.1:8890/sparql', true],
    ['http://127.10.0.3/sparql', true],
    ['http://localhost:8890/sparql', true],
    ['http://[::1]:8890/sparql', true],
    ['http://virtuoso:8890/sparql', false],
    ['http://10.0.0.2:8890/sparql', false],
    ['http://128.0.0.1/sparql', false],
    ['http://127.0.0.1.example.org/sparql', false],
    ['https://dbpedia.org/sparql', false],
  ])('%s → %s', (url, loopback) => {
    expect(isLoopback(new URL(url))).toBe(loopback);
  });
});

describe('LargeAnswers', () => {
  it('sends a kind of query on its own connection after a large answer, and back on the kept ones after a small one', () => {
    const rule = new LargeAnswers({ loopback: true });
    expect(rule.ownConnection('include-1')).toBe(false);
    rule.answered('include-1', LARGE_ANSWER_CHARS);
    expect(rule.ownConnection('include-1')).toBe(true);
    expect(rule.ownConnection('fetch')).toBe(false); // each kind on its own
    rule.answered('include-1', LARGE_ANSWER_CHARS - 1);
    expect(rule.ownConnection('include-1')).toBe(false);
  });

  it('never asks for a connection of its own off loopback, nor for a query without a kind', () => {
    const remote = new LargeAnswers({ loopback: false });
    remote.answered('include-1', 10 * LARGE_ANSWER_CHARS);
    expect(remote.ownConnection('include-1')).toBe(false);
    const local = new LargeAnswers({ loopback: true });
    local.answered(undefined, 10 * LARGE_ANSWER_CHARS);
    expect(local.ownConnection(undefined)).toBe(false);
  });
});
