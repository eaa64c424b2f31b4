import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import type { Express } from 'express';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/app.js';
import { withLinkage } from '../../src/mapping/linkage.js';
import type { Mapping } from '../../src/mapping/model.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { expectedLinkage, sampleWithEveryToMany } from '../support/linkage-mapping.js';
import { Oracle } from '../support/oracle.js';

/**
 * Front-end clients as a front-end team runs them: Ember Data's store (WarpDrive 5.8, its dev build,
 * which warns) and plain `fetch`, in headless Chromium, on a page served from another origin than
 * the API (two ports of 127.0.0.1), against the embedded sample with the public base URL set,
 * `--linkage to-one` and `linkage: true` on every to-many relationship. Each walks a collection by
 * `links.next` alone to its end and reads relationships from their linkage, without `include`;
 * WarpDrive's repeated walk is revalidated by the browser's cache (the server answers 304).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WALKED = 'trade-activities';
/** Loaded before the walk, as an app loads its lookup lists: linkage resolves to loaded records. */
const PRELOADED = ['group-national-agents', 'amounts', 'concepts'];

/** Listens on an ephemeral port of 127.0.0.1; the handler is given once the origin is known. */
async function listen(handler: (origin: string) => (req: IncomingMessage, res: ServerResponse) => void) {
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => handle!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handle = handler(origin);
  return { server, origin };
}

/** The page: WarpDrive and the walks, bundled with the dev build's export condition. */
async function pageScript(): Promise<string> {
  const bundled = await build({
    entryPoints: ['test/browser/warp-drive-walk.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['unpkg-dev'],
    write: false,
    logLevel: 'silent',
  });
  return bundled.outputFiles[0]!.text;
}

/**
 * Runs a walk in the page; its answer comes back as JSON (what the store hands out are proxies,
 * which the protocol cannot copy), its error with the page's stack.
 */
async function run(page: Page, call: string): Promise<unknown> {
  const text = (await page.evaluate(
    `(async () => { try { return JSON.stringify({ value: await ${call} }); } catch (e) { return JSON.stringify({ error: String(e?.stack ?? e) }); } })()`,
  )) as string;
  const answer = JSON.parse(text) as { value?: unknown; error?: string };
  if (answer.error !== undefined) throw new Error(`in the page: ${answer.error}`);
  return answer.value;
}

describe('front-end clients in a browser, from another origin', () => {
  let mapping: Mapping;
  let oracle: Oracle;
  let store: Store;
  let servers: Server[] = [];
  let api: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const pending: Promise<void>[] = [];
  /** The page's problems, once every console message has been read. */
  const problemsSeen = async () => {
    await Promise.all(pending);
    return problems;
  };
  /** Every API response: its path, status, and whether the request was conditional. */
  const answered: { url: string; status: number; conditional: boolean }[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install it or set CHROMIUM_PATH.`);
    mapping = withLinkage(await sampleWithEveryToMany(), 'to-one');
    oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
    store = await createOxigraphStore({ files: [SAMPLE_DATA] });
    const apiServer = await listen((origin) => {
      const app: Express = createApp({
        datasets: [{ name: 'sample', mapping, store, linkBase: origin, publicBase: origin }],
      });
      return (req, res) => {
        const conditional = req.headers['if-none-match'] !== undefined;
        res.on('finish', () => answered.push({ url: req.url ?? '', status: res.statusCode, conditional }));
        app(req, res);
      };
    });
    const script = await pageScript();
    const pageServer = await listen(() => (req, res) => {
      const js = req.url === '/walk.js';
      res.writeHead(js || req.url === '/' ? 200 : 404, {
        'content-type': js ? 'text/javascript' : 'text/html',
      });
      res.end(
        js
          ? script
          : '<!doctype html><title>walk</title><link rel="icon" href="data:,"><script type="module" src="/walk.js"></script>',
      );
    });
    servers = [apiServer.server, pageServer.server];
    api = apiServer.origin;
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${(error as Error).message}`));
    page.on('console', (message) => {
      if (!['warn', 'error', 'assert'].includes(message.type())) return;
      // WarpDrive's dev build calls console.warn(text, test, …) for each warn(text, test) of its
      // source, whether or not the test holds: a warning is one whose test is false.
      const test = message.args()[1];
      const checked = message.type() === 'warn' && test ? test.jsonValue() : Promise.resolve(false);
      pending.push(
        checked.then((held) => {
          if (held !== true) problems.push(`${message.type()}: ${message.text()}`);
        }),
      );
    });
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
    await page.goto(`${pageServer.origin}/`, { waitUntil: 'networkidle0' });
    expect(new URL(page.url()).origin).not.toBe(api);
    await page.waitForFunction('globalThis.walks !== undefined', { timeout: 20_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await store?.close();
  });

  /** The ids each relationship of a walked resource should point at, by the oracle. */
  const expectedIds = (id: string) => {
    const resource = oracle.member(WALKED, id)!;
    return Object.fromEntries(
      [...mapping.types.get(WALKED)!.relationships.keys()].map((name) => {
        const linkage = expectedLinkage(oracle, WALKED, resource, name);
        return [name, Array.isArray(linkage) ? linkage.map((l) => l.id) : (linkage?.id ?? null)];
      }),
    );
  };

  test('WarpDrive walks by links.next, reads origin and concerns from linkage, warns of nothing; the browser revalidates', async () => {
    const types = [...mapping.types.values()].map((type) => ({
      type: type.name,
      attributes: [...type.attributes.keys()],
      relationships: [...type.relationships.values()].map((r) => ({
        name: r.name,
        target: r.target,
        kind: r.cardinality === 'one' ? 'resource' : 'hasMany',
      })),
    }));
    const options = { types, preload: PRELOADED, walked: WALKED, base: api };
    const result = (await run(page, `walks.warpDrive(${JSON.stringify(options)})`)) as {
      count: number;
      read: { id: string; links: Record<string, unknown> }[];
      again: number;
    };
    const total = oracle.members(WALKED).length;
    expect(result.count).toBe(total);
    expect(new Set(result.read.map((r) => r.id)).size).toBe(total);
    expect(result.read).toHaveLength(total);
    expect(result.again).toBe(total);
    for (const { id, links } of result.read) expect(links, id).toEqual(expectedIds(id));
    expect(result.read.some(({ links }) => (links.concerns as string[]).length > 1)).toBe(true);
    expect(await problemsSeen()).toEqual([]);
    // The walk again: its first page reloaded (the store's own cache gives the next ones), which
    // the browser's cache asked with If-None-Match, and the server answered 304.
    const walkedPages = answered.filter((a) => a.url.startsWith(`/${WALKED}?`));
    expect(walkedPages.filter((a) => a.status === 200)).toHaveLength(Math.ceil(total / 5));
    const revalidated = walkedPages.filter((a) => a.conditional && a.status === 304);
    expect(revalidated.map((a) => a.url)).toEqual([`/${WALKED}?page%5Bsize%5D=5`]);
    expect(walkedPages.filter((a) => a.status !== 200 && a.status !== 304)).toEqual([]);
  }, 60_000);

  test('plain fetch walks the same collection by links.next and reads the same linkage', async () => {
    const result = (await run(page, `walks.fetch(${JSON.stringify(`${api}/${WALKED}?page[size]=4`)})`)) as {
      count: number;
      read: { id: string; relationships: Record<string, unknown> }[];
    };
    const total = oracle.members(WALKED).length;
    expect(result.count).toBe(total);
    expect(new Set(result.read.map((r) => r.id)).size).toBe(total);
    for (const { id, relationships } of result.read) {
      const resource = oracle.member(WALKED, id)!;
      for (const [name, data] of Object.entries(relationships))
        expect(data, `${id} ${name}`).toEqual(expectedLinkage(oracle, WALKED, resource, name));
    }
    expect(await problemsSeen()).toEqual([]);
  }, 60_000);
});
