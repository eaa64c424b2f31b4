import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient } from '../support/api-client.js';
import { SAMPLE_DATA } from '../support/global-setup.js';

/** Debian's Chromium (puppeteer's own download cannot be fetched here); CI installs it. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = resolve('.tmp/docs-page.png');
const TYPE = 'trade-activities';
/** How the page names the type's list operation: its summary, as a person writes it. */
const LIST = 'List trade activities';
const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

/** Waits until `predicate` (run in the page) holds, or fails naming `what`. */
async function until(page: Page, what: string, predicate: string, timeout = 20_000): Promise<void> {
  try {
    await page.waitForFunction(predicate, { timeout, polling: 100 });
  } catch (error) {
    await page.screenshot({ path: SCREENSHOT });
    throw new Error(`the docs page never showed ${what} (screenshot: ${SCREENSHOT})`, { cause: error });
  }
}

/**
 * Clicks the first button whose text starts with (or, `anywhere`, holds) `text`, scrolled into view;
 * false when there is none. (The page's code goes as a string: this project has no DOM types.)
 */
function clickButton(page: Page, text: string, anywhere = false): Promise<boolean> {
  const test = anywhere ? 'includes' : 'startsWith';
  return page.evaluate(`(() => {
    const button = [...document.querySelectorAll('button')].find((b) => (b.textContent ?? '').trim().${test}(${JSON.stringify(text)}));
    button?.scrollIntoView();
    button?.click();
    return button !== undefined;
  })()`) as Promise<boolean>;
}

describe('the docs page in a real browser (headless Chromium)', () => {
  let store: Store;
  let mapping: Mapping;
  let api: ApiClient;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `No Chromium at ${CHROMIUM}: the docs page test needs one. Install it (apt-get install chromium) or set CHROMIUM_PATH.`,
      );
    }
    mapping = await loadMapping('mappings/sample.yaml');
    store = await createOxigraphStore({ files: [SAMPLE_DATA] });
    api = await ApiClient.listen(createApp({ datasets: [{ name: 'sample', mapping, store, linkBase: '' }] }));
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 1000 });
    // Everything the page is refused (CSP) or fails at is a problem; so is a request off this server.
    page.on('pageerror', (error) => problems.push(`page error: ${(error as Error).message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy|Refused to/.test(message.text()))
        problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('request', (request) => {
      requests.push(request.url());
      if (!request.url().startsWith(api.baseUrl) && !request.url().startsWith('data:'))
        problems.push(`request off this server: ${request.url()}`);
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await store?.close();
  });

  test('renders every type from /openapi.json, and runs a request through the try-it client', async () => {
    await page.goto(`${api.baseUrl}/docs`, { waitUntil: 'networkidle0' });
    expect(requests).toContain(`${api.baseUrl}/scalar.js`);
    expect(requests).toContain(`${api.baseUrl}/openapi.json`);
    await until(page, 'the types in its sidebar', `document.body.innerText.includes('${LIST}')`);
    const text = (await page.evaluate('document.body.innerText')) as string; // the text a reader sees
    for (const type of mapping.types.keys()) expect(text, `the sidebar names ${type}`).toContain(type);
    // Summaries as a person writes them; the badge shows the API's version, not a digest.
    expect(text).toContain('Get one trade activity');
    expect(text).not.toContain(`one of ${TYPE}`);
    expect(text).toContain(VERSION);
    const described = (await (await fetch(`${api.baseUrl}/openapi.json`)).json()) as { info: Record<string, string> };
    expect(described.info.version).toBe(VERSION);
    expect(text).not.toContain(described.info['x-digest']);
    expect(text).not.toContain('../');

    // The operation, its "Test Request" button, then the client's Send.
    expect(await clickButton(page, LIST)).toBe(true);
    await until(
      page,
      'a Test Request button',
      `[...document.querySelectorAll('button')].some((b) => b.innerText.includes('(get /${TYPE})'))`,
    );
    expect(await clickButton(page, `(get /${TYPE})`, true)).toBe(true);
    await until(
      page,
      'the client’s Send button',
      `[...document.querySelectorAll('button')].some((b) => b.innerText.trim().startsWith('Send'))`,
    );
    const sent = requests.length;
    expect(await clickButton(page, 'Send')).toBe(true);

    // The response, as the API gives it, shows in the page: its status and the first resource's id.
    const expected = await api.get(`/${TYPE}`);
    expect(expected.status).toBe(200);
    const firstId: string = expected.body.data[0].id;
    await until(page, 'the response status', `document.body.innerText.includes('200 OK')`);
    await until(
      page,
      `the first ${TYPE} id (${firstId})`,
      `document.body.innerText.includes(${JSON.stringify(firstId)})`,
    );
    expect(requests.slice(sent)).toContain(`${api.baseUrl}/${TYPE}`);

    mkdirSync('.tmp', { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    console.log(`docs page screenshot: ${SCREENSHOT}`);
    // The try-it client's request: the defaults it filled in are a request the server takes.
    const tried = requests.slice(sent).find((url) => url.startsWith(`${api.baseUrl}/${TYPE}`))!;
    expect((await api.get(tried.slice(api.baseUrl.length))).status).toBe(200);

    // Nothing refused by the page's Content-Security-Policy, no script error, nothing from elsewhere.
    // (The favicon is a data: URL, so not even a 404.)
    expect(problems).toEqual([]);
  }, 90_000);

  test('a browser at / gets the same page, and it loads its description and bundle from the root', async () => {
    const before = requests.length;
    await page.goto(`${api.baseUrl}/`, { waitUntil: 'networkidle0' });
    await until(page, 'the types in its sidebar', `document.body.innerText.includes('${LIST}')`);
    expect(requests.slice(before)).toEqual(
      expect.arrayContaining([`${api.baseUrl}/scalar.js`, `${api.baseUrl}/openapi.json`]),
    );
    expect(problems).toEqual([]);
  }, 60_000);
});
