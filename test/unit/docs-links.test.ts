/**
 * Every relative link of README.md and docs/*.md leads somewhere: the file exists, and an anchor
 * (`#…`) names a heading of the page it points at, slugged as GitHub does. The documentation moves
 * between pages; this keeps the moves honest.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(new URL('../../', import.meta.url).pathname);

/** Markdown lines outside fenced code blocks (``` or ~~~), with their line numbers. */
function proseLines(text: string): { line: string; number: number }[] {
  const out: { line: string; number: number }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) out.push({ line, number: index + 1 });
  });
  return out;
}

/**
 * GitHub's heading anchor (github-slugger): the heading's text without markup, lowercased, every
 * character but letters, marks, digits, `_`, `-` and spaces removed, spaces turned into `-`.
 */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .replace(/(^|\s)_+|_+(\s|$)/g, '$1$2');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page: one per heading, a repeated slug getting `-1`, `-2`… as on GitHub. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { line } of proseLines(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** Link targets of a page (inline links, images, reference definitions), outside code. */
function linksOf(text: string): { target: string; number: number }[] {
  const links: { target: string; number: number }[] = [];
  for (const { line, number } of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: m[1]!, number });
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/.exec(prose);
    if (definition) links.push({ target: definition[1]!, number });
  }
  return links;
}

/** What is wrong with the relative links of `file`: `file:line: target: why`, none when all resolve. */
function brokenLinks(file: string, read: (path: string) => string | undefined): string[] {
  const text = read(file);
  if (text === undefined) return [`${file}: no such file`];
  const problems: string[] = [];
  for (const { target, number } of linksOf(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const [path = '', anchor] = target.split('#', 2) as [string, string | undefined];
    const to = path === '' ? file : join(dirname(file), decodeURIComponent(path));
    const where = `${relative(ROOT, file)}:${number}: ${target}`;
    const page = read(to);
    if (page === undefined && !existsSync(to)) {
      problems.push(`${where}: no file ${relative(ROOT, to)}`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!to.endsWith('.md') || page === undefined) {
      problems.push(`${where}: an anchor into a file that is not a markdown page`);
    } else if (!anchorsOf(page).has(decodeURIComponent(anchor))) {
      problems.push(`${where}: no heading with anchor #${anchor} in ${relative(ROOT, to)}`);
    }
  }
  return problems;
}

const readIfFile = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

describe('githubSlug and anchorsOf', () => {
  test.each([
    ['Publish your own data', 'publish-your-own-data'],
    ['Graphs: how loaded data is served', 'graphs-how-loaded-data-is-served'],
    ['What a request costs in SPARQL', 'what-a-request-costs-in-sparql'],
    ['HTTP caching and CORS', 'http-caching-and-cors'],
    ['1. Scaffold a mapping from the data', '1-scaffold-a-mapping-from-the-data'],
    ['`npm run virtuoso`, and `--data-dir`', 'npm-run-virtuoso-and---data-dir'],
    ['Ids: `local` vs. `hex` (and [templates](x.md))', 'ids-local-vs-hex-and-templates'],
    ['Élan & ünïcode', 'élan--ünïcode'],
  ])('%s → #%s', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  test('repeated headings get -1, -2; headings inside code blocks are no headings', () => {
    const page = '# Notes\n\n## Notes\n\n```sh\n# a shell comment\n```\n\n### Notes\n';
    expect([...anchorsOf(page)]).toEqual(['notes', 'notes-1', 'notes-2']);
  });
});

describe('brokenLinks', () => {
  const pages: Record<string, string> = {
    [join(ROOT, 'README.md')]: [
      '# Title',
      'See [a](docs/a.md#first-part), [top](#title), [gone](docs/nope.md), [bad](docs/a.md#nope),',
      '[self](#nope), [web](https://example.org/#x), `[code](docs/nope.md)` and ![img](package.json).',
      '```',
      '[in a fence](docs/nope.md)',
      '```',
      '[ref]: docs/missing.md',
    ].join('\n'),
    [join(ROOT, 'docs/a.md')]: '# A\n\n## First part\n\nBack to [the top](../README.md#title).\n',
  };
  const read = (path: string) => pages[path];

  test('names each broken file and anchor with its line, and nothing else', () => {
    expect(brokenLinks(join(ROOT, 'README.md'), read)).toEqual([
      'README.md:2: docs/nope.md: no file docs/nope.md',
      'README.md:2: docs/a.md#nope: no heading with anchor #nope in docs/a.md',
      'README.md:3: #nope: no heading with anchor #nope in README.md',
      'README.md:7: docs/missing.md: no file docs/missing.md',
    ]);
    expect(brokenLinks(join(ROOT, 'docs/a.md'), read)).toEqual([]);
  });
});

describe('the documentation', () => {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name));
  const files = [join(ROOT, 'README.md'), ...docs];

  test('README.md links every page of docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = new Set(linksOf(readme).map(({ target }) => target.split('#')[0]));
    expect(docs.map((file) => relative(ROOT, file)).filter((page) => !linked.has(page))).toEqual([]);
  });

  test.each(files.map((file) => [relative(ROOT, file), file]))(
    'every relative link and anchor of %s resolves',
    (_, file) => {
      expect(brokenLinks(file!, readIfFile)).toEqual([]);
    },
  );
});
