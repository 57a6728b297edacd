// The live explorers in Jupyter's classic notebook, in Debian's headless Chromium: run the
// notebook (a sampling explorer, then a generation stepper), drag the temperature with the
// keyboard and check the figure is redrawn, click Step twice and count the stepper's rows.
// Screenshots of both cells.
//
//   node explorers.mjs BASE_URL TOKEN OUTDIR NOTEBOOK
// prints one JSON line: {"figureChanged", "rows", "sampling", "stepper"}.
import { chromium } from 'playwright-core';
import path from 'node:path';

const [base, token, outdir, nb] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('dialog', d => d.accept());
  await page.goto(`${base}/notebooks/${encodeURI(nb)}?token=${token}`);
  await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&
    Jupyter.notebook.kernel.is_connected() && document.querySelector('#kernel_indicator_icon.kernel_idle_icon'),
    null, { timeout: 60000 });
  await page.evaluate(() => Jupyter.notebook.execute_all_cells());
  const sampling = page.locator('.code_cell:has(svg rect)').first();
  await sampling.waitFor({ timeout: 120000 });
  const before = await sampling.locator('.widget-html').first().innerText();
  const handle = sampling.locator('.widget-hslider .ui-slider-handle').first();
  await handle.click();
  for (let i = 0; i < 6; i++) await handle.press('ArrowLeft');
  await page.waitForFunction(b => {
    const el = document.querySelector('.code_cell svg rect').closest('.widget-html');
    return el && el.innerText !== b;
  }, before, { timeout: 60000 });
  const samplingShot = path.join(outdir, 'sampling-explorer.png');
  await sampling.screenshot({ path: samplingShot });
  // The stepper: Step twice, one more table row each time.
  const stepper = page.locator('.code_cell:has(button:text-is("Step 10"))').first();
  await stepper.waitFor({ timeout: 120000 });
  const rows = [];
  const count = () => stepper.locator('.widget-html table tr').count();
  rows.push(await count());
  for (let i = 0; i < 2; i++) {
    const want = rows[rows.length - 1] + 1;
    await stepper.locator('button', { hasText: /^Step$/ }).click();
    await page.waitForFunction(([w]) => {
      const cells = [...document.querySelectorAll('.code_cell')].filter(c => [...c.querySelectorAll('button')].some(b => b.innerText === 'Step 10'));
      return cells.length && cells[0].querySelectorAll('.widget-html table tr').length >= w;
    }, [want], { timeout: 60000 });
    rows.push(await count());
  }
  const stepperShot = path.join(outdir, 'generation-stepper.png');
  await stepper.screenshot({ path: stepperShot });
  console.log(JSON.stringify({ figureChanged: true, rows, sampling: samplingShot, stepper: stepperShot }));
} finally {
  await browser.close();
}
