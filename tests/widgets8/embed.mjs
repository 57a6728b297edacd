// Renders saved notebooks' widgets without a kernel: for each notebook, the embed page
// (src/embed.js) gets the notebook's saved widget state and its widget-view outputs and draws
// them with html-manager's embed code, in Debian's headless Chromium.
//
//   node embed.mjs BASE_URL TOKEN OUTDIR NOTEBOOK.ipynb...
// prints one JSON line: {notebooks: {name: {tags, views, text}}, errors, screenshots}.
import { open } from './page.mjs';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [base, token, outdir, ...notebooks] = process.argv.slice(2);
const { browser, page, errors } = await open(base, token, 'embed.html', 'gnEmbed');
const report = { notebooks: {}, errors, screenshots: [] };
try {
  for (const file of notebooks) {
    const name = path.basename(file);
    await page.reload();
    await page.waitForFunction(() => window.gnEmbed, null, { timeout: 60000 });
    const nb = JSON.parse(readFileSync(file, 'utf8'));
    const tags = await page.evaluate(nb => gnEmbed.render(nb), nb);
    // display_view attaches each view as it is made; wait until every tag has one.
    await page.waitForFunction(n => gnEmbed.views() >= n, tags, { timeout: 60000 }).catch(() => {});
    const views = await page.evaluate(() => gnEmbed.views());
    const text = (await page.locator('#notebook').innerText()).slice(0, 400);
    const shot = path.join(outdir, `embed-${name.replace(/\.ipynb$/, '')}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    report.screenshots.push(shot);
    report.notebooks[name] = { tags, views, text };
  }
} finally {
  console.log(JSON.stringify(report));
  await browser.close();
}
