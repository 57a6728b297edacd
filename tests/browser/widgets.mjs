// Live widgets in Jupyter's classic notebook, in Debian's headless Chromium: open the notebook,
// run its cells, then use the widgets a cell shows as a student would, with the keyboard and the
// mouse: move the slider (its handle, arrow keys), click the button, and read what the Output
// widget shows after each. Takes a screenshot of the widget cell.
//
//   node widgets.mjs BASE_URL TOKEN OUTDIR NOTEBOOK
// prints one JSON line: {"initial", "afterSlider", "afterClick", "kernelSteps", "screenshot"}.
import { chromium } from 'playwright-core';
import path from 'node:path';

const [base, token, outdir, nb] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  page.on('dialog', d => d.accept());
  const consoleLines = [];
  page.on('console', m => { if (/[Ww]idget|version/.test(m.text())) consoleLines.push(m.text().slice(0, 300)); });
  await page.goto(`${base}/notebooks/${encodeURI(nb)}?token=${token}`);
  await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&
    Jupyter.notebook.kernel.is_connected() && document.querySelector('#kernel_indicator_icon.kernel_idle_icon'),
    null, { timeout: 60000 });
  await page.evaluate(() => Jupyter.notebook.execute_all_cells());
  const out = page.locator('.widget-area .output_subarea').last();
  // What the Output widget shows, once it shows want.
  const shows = async (want) => {
    await page.waitForFunction(w => [...document.querySelectorAll('.widget-area')].some(a => a.innerText.includes(w)),
      want, { timeout: 60000, polling: 200 });
    return (await page.locator('.widget-area').last().innerText()).trim();
  };
  const initial = await shows('n² = 9, steps = 0');
  // Move the slider two steps right, with the keyboard on its handle.
  const handle = page.locator('.widget-hslider .ui-slider-handle').first();
  await handle.click();
  await handle.press('ArrowRight');
  await handle.press('ArrowRight');
  const afterSlider = await shows('n² = 25, steps = 0');
  await page.locator('.widget-area button', { hasText: 'Step' }).first().click();
  const afterClick = await shows('n² = 25, steps = 1');
  // The kernel's state changed too: ask it, as a new cell.
  await page.evaluate(() => {
    const c = Jupyter.notebook.insert_cell_at_bottom('code');
    c.set_text('fmt.Println(steps, n.Value())');
    c.execute();
  });
  await page.waitForFunction(() => {
    const cs = Jupyter.notebook.get_cells();
    return cs[cs.length - 1].output_area.outputs.length > 0;
  }, null, { timeout: 60000 });
  const kernelSteps = await page.evaluate(() => {
    const cs = Jupyter.notebook.get_cells();
    const o = cs[cs.length - 1].output_area.outputs[0];
    return (o.text || JSON.stringify(o)).trim();
  });
  const cell = page.locator('.code_cell:has(.widget-hslider)').first();
  const shot = path.join(outdir, 'widgets.png');
  await cell.screenshot({ path: shot });
  console.log(JSON.stringify({ initial, afterSlider, afterClick, kernelSteps, screenshot: shot, console: consoleLines }));
} finally {
  await browser.close();
}
