// Drives Jupyter's classic notebook UI in Debian's headless Chromium, as a student would:
// open a notebook, Cell → Run All from the menu, wait for the kernel to finish, check that no
// cell shows an error (cells tagged raises-exception may), count figures, take screenshots: the
// whole notebook, its first cell with a figure, and each cell tagged "screenshot".
//
//   node run.mjs BASE_URL TOKEN OUTDIR NOTEBOOK...
// prints one JSON line per notebook: {"notebook", "cells", "ran", "kernelEvents", "errors", "images", "last",
// "screenshot", "figure", "shots"}, ran being the code cells that show an execution count and last the text
// the last code cell shows.
import { chromium } from 'playwright-core';
import path from 'node:path';

const [base, token, outdir, ...notebooks] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let failed = false;
try {
  for (const nb of notebooks) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('dialog', d => d.accept());
    await page.goto(`${base}/notebooks/${encodeURI(nb)}?token=${token}`);
    // The kernel is ready when the notebook's kernel indicator says idle.
    const kernelIdle = () => page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&
      Jupyter.notebook.kernel.is_connected() && document.querySelector('#kernel_indicator_icon.kernel_idle_icon'),
      null, { timeout: 60000 });
    await kernelIdle();
    // Trust the notebook (File → Trust Notebook → Trust) so the scripts of HTML outputs, the
    // interactive figures, run as they would for a student who trusts it. Trusting asks the server
    // and then reloads the page. On the new page a Run All clicked before the page has its kernel
    // does nothing (CodeCell.execute returns when the cell has no kernel): no cell runs, none
    // fails, no figure shows. So wait for the reload and for the kernel again.
    if (await page.evaluate(() => Jupyter.notebook.trusted === false)) {
      await page.click('#filelink');
      await page.click('#trust_notebook a');
      const reloaded = page.waitForEvent('load', { timeout: 60000 });
      await page.locator('.modal.in .modal-footer button', { hasText: 'Trust' }).last().click({ force: true });
      await reloaded;
      await kernelIdle();
      if (!await page.evaluate(() => Jupyter.notebook.trusted)) throw new Error(`${nb}: still untrusted after File → Trust Notebook`);
    }
    // A kernel that restarts or dies mid-run clears the queue; note it, so the report says why
    // cells did not run.
    await page.evaluate(() => {
      window.kernelEvents = [];
      Jupyter.notebook.events.on('kernel_restarting.Kernel kernel_dead.Kernel kernel_disconnected.Kernel',
        e => window.kernelEvents.push(e.type));
    });
    // Cell → Run All, through the menu.
    await page.click('#celllink');
    await page.click('#run_all_cells a');
    // Run All marks every queued cell [*] at once; wait for that first (on a loaded machine the
    // page can take a while to), or the check below passes before anything ran. No [*] at all
    // means the Run All went nowhere: that fails here rather than pass as a quiet notebook.
    await page.waitForFunction(() => [...document.querySelectorAll('.input_prompt')].some(p => p.textContent.includes('*')),
      null, { timeout: 30000, polling: 100 });
    // Done when no prompt shows [*] and the kernel is idle again.
    await page.waitForFunction(() => {
      const busy = [...document.querySelectorAll('.input_prompt')].some(p => p.textContent.includes('*'));
      return !busy && document.querySelector('#kernel_indicator_icon.kernel_idle_icon');
    }, null, { timeout: 180000, polling: 500 });
    const report = await page.evaluate(() => {
      const cells = Jupyter.notebook.get_cells().filter(c => c.cell_type === 'code');
      const errors = [];
      for (const c of cells) {
        const tags = (c.metadata.tags || []);
        if (tags.includes('raises-exception')) continue;
        if (c.element[0].querySelector('.output_error, .output_stderr')) {
          errors.push(c.get_text().slice(0, 200) + ' → ' + c.element[0].querySelector('.output_area').innerText.slice(0, 400));
        }
      }
      const images = document.querySelectorAll('.output_png img, .output_svg svg, .output_html svg, .output_html img').length;
      const lastOut = cells.length ? cells[cells.length - 1].element[0].querySelector('.output_area') : null;
      // Cells that ran show a number in their prompt.
      const ran = cells.filter(c => typeof c.input_prompt_number === 'number').length;
      return { cells: cells.length, ran, kernelEvents: window.kernelEvents, errors, images,
        last: lastOut ? lastOut.innerText.slice(0, 1000) : '' };
    });
    // The first cell with a figure, input and output, as a student sees it.
    const name = nb.replace(/\.ipynb$/, '');
    let figure = null;
    const figCell = page.locator('.code_cell:has(.output_png img)').first();
    if (await figCell.count()) {
      figure = path.join(outdir, name + '-figure.png');
      await figCell.scrollIntoViewIfNeeded();
      await figCell.screenshot({ path: figure });
    }
    // The classic notebook scrolls inside #site; let the page grow so fullPage holds every cell.
    await page.evaluate(() => {
      const site = document.getElementById('site');
      site.style.height = 'auto';
      site.style.overflow = 'visible';
      document.body.style.overflow = 'visible';
    });
    // Cells tagged "screenshot" in the source (```go screenshot), input and output, each as
    // NAME-cellN.png: the views the README and docs/ show (after the page has grown, so a tall cell is
    // whole).
    const shots = [];
    const tagged = await page.evaluate(() => Jupyter.notebook.get_cells()
      .map((c, i) => ((c.metadata.tags || []).includes('screenshot') ? i : -1)).filter(i => i >= 0));
    for (const i of tagged) {
      const cell = page.locator('#notebook-container > .cell').nth(i);
      const shotPath = path.join(outdir, `${name}-cell${i}.png`);
      await cell.scrollIntoViewIfNeeded();
      await cell.screenshot({ path: shotPath });
      shots.push(shotPath);
    }
    const shot = path.join(outdir, name + '.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(JSON.stringify({ notebook: nb, ...report, screenshot: shot, figure, shots }));
    if (report.errors.length) failed = true;
    await page.close();
  }
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
