// What every scenario needs: headless Chromium (Debian's) on a bundled test page, which the
// Jupyter server serves from dist/ (its extra_static_paths) at /static/.
import { chromium } from 'playwright-core';

// open launches Chromium and loads one of the pages (widgets8.html, the live one, or
// embed.html), waiting for its global; it returns {browser, page, errors}, errors being the
// page's uncaught exceptions and console errors, for the report.
export async function open(base, token, html = 'widgets8.html', global = 'gn') {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors = [];
  page.on('pageerror', e => errors.push('pageerror: ' + String(e).slice(0, 300)));
  page.on('console', m => { if (m.type() === 'error') errors.push('console: ' + m.text().slice(0, 600)); });
  await page.goto(`${base}/static/${html}?token=${token}`);
  await page.waitForFunction(g => window[g], global, { timeout: 60000 });
  return { browser, page, errors };
}

// Notebook wraps the page's window.gn for a scenario.
export class Notebook {
  constructor(page) { this.page = page; }
  start() { return this.page.evaluate(() => gn.start()); }
  // run runs a cell and fails when the cell fails.
  async run(source) {
    const r = await this.page.evaluate(s => gn.run(s), source);
    if (r.status !== 'ok') {
      throw new Error(`cell ${r.cell} ${r.status}: ${await this.text(r.cell)}\n${source}`);
    }
    return r;
  }
  text(i) { return this.page.evaluate(i => gn.text(i), i); }
  views() { return this.page.evaluate(() => gn.views()); }
  cell(i) { return this.page.locator('.gn-cell').nth(i); }
  // shows waits until cell i shows want (a string, or a RegExp source with re true) and returns its text.
  async shows(i, want, timeout = 60000) {
    try {
      await this.page.waitForFunction(([i, w]) => gn.text(i).includes(w), [i, want], { timeout, polling: 100 });
    } catch (e) {
      throw new Error(`cell ${i} never showed ${JSON.stringify(want)}; it shows:\n${await this.text(i)}`);
    }
    return this.text(i);
  }
}
