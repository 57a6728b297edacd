// Drives ipywidgets 8's front end (the bundled test page, src/widgets8.js) against a live gptnotes
// kernel in Debian's headless Chromium, as a student would use the widgets: every control moved
// in the page (its Go callback runs and its Output redraws) and set from a cell (SetValue: the
// view moves), Interact, the four explorers, 50 quick slider moves, a page reload.
//
//   node drive.mjs BASE_URL TOKEN OUTDIR short|long [RECORDDIR]
// With RECORDDIR (make record-widgets8), each control check's widget messages, both ways, and its
// cells are written to RECORDDIR/NAME.json, which kernel/widget's TestRecordings8 replays.
// Each check throws when the page does not show what it should; the last line printed is a JSON
// report {mode, checks: {name: what was seen}, views, errors, screenshots}.
import { open, Notebook } from './page.mjs';
import path from 'node:path';
import { writeFileSync } from 'node:fs';

const [base, token, outdir, mode = 'short', recordDir] = process.argv.slice(2);
const log = (...a) => process.stderr.write(a.join(' ') + '\n');

// The first cell: imports, and say, which a callback uses to replace what its Output shows.
const SETUP = `import (
	"bytes"
	"fmt"
	"image"
	"image/png"

	"github.com/gptnotes/gptnotes/kernel/widget"
)

func say(o *widget.Output, format string, args ...any) {
	o.Capture(func() {
		o.Clear(true)
		fmt.Printf(format+"\\n", args...)
	})
}

// pngOf is a w×h PNG, for the Image check.
func pngOf(w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		panic(err)
	}
	return b.Bytes()
}`;

// view waits until fn(cellElement, arg) is true in the page, for cell i.
async function view(nb, i, fn, arg, what) {
  try {
    await nb.page.waitForFunction(([i, src, arg]) => {
      const cell = document.querySelectorAll('.gn-cell')[i];
      return cell && new Function('cell', 'arg', src)(cell, arg);
    }, [i, fn, arg], { timeout: 60000, polling: 100 });
  } catch (e) {
    throw new Error(`cell ${i}: the view never showed ${what}; the cell shows:\n${await nb.text(i)}`);
  }
}

// Each check runs its cells and uses the page; it returns what it saw. Names are the README's
// control types (and the other checks'); SHORT is make test's subset.
const CHECKS = {
  async IntSlider(nb) {
    const c = (await nb.run(`oInt := widget.NewOutput()
sInt := widget.NewIntSlider("int", 0, 10, 3)
sInt.OnChange(func(v int) { say(oInt, "int is %d, squared %d", v, v*v) })
widget.NewVBox(sInt, oInt)`)).cell;
    const h = nb.cell(c).locator('.widget-slider .noUi-handle').first();
    await h.focus();
    await h.press('ArrowRight');
    await h.press('ArrowRight');
    const page = await nb.shows(c, 'int is 5, squared 25');
    await nb.run('sInt.SetValue(8)');
    await view(nb, c, 'return cell.querySelector(".widget-readout").innerText.trim() === arg', '8', 'readout 8');
    return { page, kernel: await nb.shows(c, 'int is 8, squared 64') };
  },

  async FloatSlider(nb) {
    const c = (await nb.run(`oFloat := widget.NewOutput()
sFloat := widget.NewFloatSlider("float", 0, 2, 0.25, 1)
sFloat.OnChange(func(v float64) { say(oFloat, "float is %.2f", v) })
widget.NewVBox(sFloat, oFloat)`)).cell;
    const h = nb.cell(c).locator('.widget-slider .noUi-handle').first();
    await h.focus();
    await h.press('ArrowLeft');
    const page = await nb.shows(c, 'float is 0.75');
    await nb.run('sFloat.SetValue(1.5)');
    await view(nb, c, 'return cell.querySelector(".widget-readout").innerText.trim() === arg', '1.50', 'readout 1.50');
    return { page, kernel: await nb.shows(c, 'float is 1.50') };
  },

  async Dropdown(nb) {
    const c = (await nb.run(`oDrop := widget.NewOutput()
dDrop := widget.NewDropdown("drop", []string{"alpha", "beta", "gamma"}, "alpha")
dDrop.OnChange(func(v string) { say(oDrop, "drop is %s (index %d)", v, dDrop.Index()) })
widget.NewVBox(dDrop, oDrop)`)).cell;
    await nb.cell(c).locator('.widget-dropdown select').selectOption({ label: 'gamma' });
    const page = await nb.shows(c, 'drop is gamma (index 2)');
    await nb.run('dDrop.SetValue("beta")');
    await view(nb, c, 'const s = cell.querySelector(".widget-dropdown select"); return s.options[s.selectedIndex].text === arg', 'beta', 'beta selected');
    return { page, kernel: await nb.shows(c, 'drop is beta (index 1)') };
  },

  async ToggleButtons(nb) {
    const c = (await nb.run(`oTog := widget.NewOutput()
tTog := widget.NewToggleButtons("tog", []string{"left", "middle", "right"}, "left")
tTog.OnChange(func(v string) { say(oTog, "toggle is %s", v) })
widget.NewVBox(tTog, oTog)`)).cell;
    await nb.cell(c).locator('.widget-toggle-buttons button', { hasText: 'right' }).click();
    const page = await nb.shows(c, 'toggle is right');
    await nb.run('tTog.SetValue("middle")');
    await view(nb, c, 'const b = cell.querySelector(".widget-toggle-buttons button.mod-active"); return b && b.innerText.trim() === arg', 'middle', 'middle pressed');
    return { page, kernel: await nb.shows(c, 'toggle is middle') };
  },

  async RadioButtons(nb) {
    const c = (await nb.run(`oRadio := widget.NewOutput()
rRadio := widget.NewRadioButtons("radio", []string{"red", "green", "blue"}, "red")
rRadio.OnChange(func(v string) { say(oRadio, "radio is %s", v) })
widget.NewVBox(rRadio, oRadio)`)).cell;
    await nb.cell(c).locator('.widget-radio-box label', { hasText: 'blue' }).click();
    const page = await nb.shows(c, 'radio is blue');
    await nb.run('rRadio.SetValue("green")');
    await view(nb, c, 'const i = cell.querySelector(".widget-radio-box input:checked"); return i && i.parentElement.innerText.trim() === arg', 'green', 'green checked');
    return { page, kernel: await nb.shows(c, 'radio is green') };
  },

  async Checkbox(nb) {
    const c = (await nb.run(`oCheck := widget.NewOutput()
cCheck := widget.NewCheckbox("check", false)
cCheck.OnChange(func(v bool) { say(oCheck, "check is %v", v) })
widget.NewVBox(cCheck, oCheck)`)).cell;
    await nb.cell(c).locator('.widget-checkbox input[type=checkbox]').click();
    const page = await nb.shows(c, 'check is true');
    await nb.run('cCheck.SetValue(false)');
    await view(nb, c, 'return cell.querySelector(".widget-checkbox input").checked === arg', false, 'unchecked');
    return { page, kernel: await nb.shows(c, 'check is false') };
  },

  async Button(nb) {
    const c = (await nb.run(`oButton := widget.NewOutput()
bButton := widget.NewButton("Press")
presses := 0
bButton.OnClick(func() { presses++; say(oButton, "pressed %d times", presses) })
widget.NewVBox(bButton, oButton)`)).cell;
    const b = nb.cell(c).locator('button.jupyter-button', { hasText: 'Press' });
    await b.click();
    await nb.shows(c, 'pressed 1 times');
    await b.click();
    const page = await nb.shows(c, 'pressed 2 times');
    await nb.run('bButton.SetDescription("Pressed twice")');
    await view(nb, c, 'return [...cell.querySelectorAll("button")].some(b => b.innerText.trim() === arg)', 'Pressed twice', 'the new description');
    return { page, kernel: 'description "Pressed twice"' };
  },

  async Text(nb) {
    const c = (await nb.run(`oText := widget.NewOutput()
tText := widget.NewText("text", "type here", "")
tText.OnSubmit(func(s string) { say(oText, "submitted %q", s) })
widget.NewVBox(tText, oText)`)).cell;
    const input = nb.cell(c).locator('.widget-text input');
    await input.fill('hello widgets');
    await input.press('Enter');
    const page = await nb.shows(c, 'submitted "hello widgets"');
    await nb.run('tText.SetValue("from Go")');
    await view(nb, c, 'return cell.querySelector(".widget-text input").value === arg', 'from Go', 'the input holding "from Go"');
    return { page, kernel: 'input holds "from Go"' };
  },

  async Textarea(nb) {
    const c = (await nb.run(`oArea := widget.NewOutput()
tArea := widget.NewTextarea("area", "", 3)
tArea.OnChange(func(s string) { say(oArea, "area has %d bytes", len(s)) })
widget.NewVBox(tArea, oArea)`)).cell;
    await nb.cell(c).locator('.widget-textarea textarea').fill('two\nlines');
    const page = await nb.shows(c, 'area has 9 bytes');
    await nb.run('tArea.SetValue("one")');
    await view(nb, c, 'return cell.querySelector(".widget-textarea textarea").value === arg', 'one', 'the textarea holding "one"');
    return { page, kernel: await nb.shows(c, 'area has 3 bytes') };
  },

  // Play, with Link: the link is a front-end model (ipywidgets' jslink), so the page copies the
  // Play's value to the slider, whose change reaches the kernel.
  async Play(nb) {
    const c = (await nb.run(`oPlay := widget.NewOutput()
pPlay := widget.NewPlay("play", 0, 3, 1, 50)
sPlay := widget.NewIntSlider("linked", 0, 3, 0)
lPlay := widget.NewLink(pPlay, "value", sPlay, "value")
pPlay.OnChange(func(v int) { say(oPlay, "play is %d, slider %d", v, sPlay.Value()) })
widget.NewVBox(pPlay, sPlay, oPlay)`)).cell;
    await nb.cell(c).locator('.widget-play button').first().click(); // ▶
    const page = await nb.shows(c, 'play is 3');
    await view(nb, c, 'return cell.querySelector(".widget-readout").innerText.trim() === arg', '3', 'the linked slider at 3');
    await nb.run('pPlay.SetValue(1)');
    await view(nb, c, 'return cell.querySelector(".widget-readout").innerText.trim() === arg', '1', 'the linked slider at 1');
    const kernel = await nb.shows(c, 'play is 1');
    const k = await nb.run('fmt.Println("slider", sPlay.Value())');
    return { page, kernel, linked: await nb.shows(k.cell, 'slider 1') };
  },

  // DirectionalLink (jsdlink): the page copies the source slider's value to the target, one way.
  async DirectionalLink(nb) {
    const c = (await nb.run(`oDl := widget.NewOutput()
sSrc := widget.NewIntSlider("source", 0, 10, 2)
sDst := widget.NewIntSlider("target", 0, 10, 2)
dl := widget.NewDirectionalLink(sSrc, "value", sDst, "value")
sDst.OnChange(func(v int) { say(oDl, "target is %d", v) })
widget.NewVBox(sSrc, sDst, oDl)`)).cell;
    const h = nb.cell(c).locator('.widget-slider .noUi-handle').first();
    await h.focus();
    await h.press('ArrowRight');
    const page = await nb.shows(c, 'target is 3');
    await nb.run('sDst.SetValue(9)');
    const readouts = 'return [...cell.querySelectorAll(".widget-readout")].map(r => r.innerText.trim()).join(" ") === arg';
    await view(nb, c, readouts, '3 9', 'source 3, target 9 (the link is one way)');
    const kernel = await nb.shows(c, 'target is 9');
    await nb.run('dl.Unlink()');
    await h.press('ArrowRight');
    const k = await nb.run('fmt.Println("source", sSrc.Value(), "target", sDst.Value())');
    return { page, kernel, unlinked: await nb.shows(k.cell, 'source 4 target 9') };
  },

  async Label(nb) {
    const c = (await nb.run(`lLabel := widget.NewLabel("label before")
hHTML := widget.NewHTML("<b>html before</b>")
widget.NewVBox(lLabel, hHTML)`)).cell;
    await nb.shows(c, 'label before');
    await nb.run('lLabel.SetValue("label after")\nhHTML.SetValue("<i id=\\"gn-html\\">html after</i>")');
    await view(nb, c, 'return cell.innerText.includes("label after") && !!cell.querySelector(".widget-html-content i#gn-html")', null, 'the new label and HTML');
    return { kernel: await nb.text(c) };
  },

  async Image(nb) {
    const c = (await nb.run(`iImage := widget.NewImage("png", pngOf(3, 2))
iImage`)).cell;
    await view(nb, c, 'const i = cell.querySelector("img"); return i && i.complete && i.naturalWidth === arg', 3, 'a 3-pixel-wide image');
    await nb.run('iImage.SetValue(pngOf(7, 5))');
    await view(nb, c, 'const i = cell.querySelector("img"); return i && i.complete && i.naturalWidth === arg', 7, 'a 7-pixel-wide image');
    return { kernel: 'the image went from 3×2 to 7×5 pixels' };
  },

  // Output on its own: Display and Clear from a cell.
  async Output(nb) {
    const c = (await nb.run(`oOut := widget.NewOutput()
oOut`)).cell;
    await nb.run('oOut.Capture(func() { fmt.Println("printed into the Output") })');
    const printed = await nb.shows(c, 'printed into the Output');
    await nb.run('oOut.Clear(false)\noOut.Display(widget.NewLabel("a label displayed in it"))');
    await view(nb, c, 'return cell.innerText.includes(arg) && !cell.innerText.includes("printed into")', 'a label displayed in it', 'the label alone');
    return { printed, kernel: await nb.text(c) };
  },

  // HBox, VBox and Layout: a box of a given width, resized from a cell.
  async Layout(nb) {
    const c = (await nb.run(`lay := widget.NewLayout("300px", "2px solid red")
hb := lay.HBox(widget.NewLabel("left"), widget.NewLabel("right"))
widget.NewVBox(hb, widget.NewLabel("below"))`)).cell;
    const widthIs = 'const b = cell.querySelector(".widget-hbox"); return b && b.children.length === 2 && Math.round(b.getBoundingClientRect().width) === arg';
    await view(nb, c, widthIs, 300, 'an HBox of two, 300px wide');
    await nb.run('lay.SetWidth("420px")');
    await view(nb, c, widthIs, 420, 'the HBox 420px wide');
    return { kernel: 'HBox of 2 in a VBox, 300px then 420px wide' };
  },

  async Interact(nb) {
    const c = (await nb.run(`iN := widget.NewIntSlider("n", 0, 10, 3)
iOp := widget.NewDropdown("op", []string{"square", "cube"}, "square")
widget.Interact(func(v []any) {
	k := v[0].(int)
	if v[1].(string) == "cube" {
		fmt.Printf("%d cubed = %d\\n", k, k*k*k)
		return
	}
	fmt.Printf("%d squared = %d\\n", k, k*k)
}, iN, iOp)`)).cell;
    const initial = await nb.shows(c, '3 squared = 9');
    await nb.cell(c).locator('.widget-dropdown select').selectOption({ label: 'cube' });
    await nb.shows(c, '3 cubed = 27');
    const h = nb.cell(c).locator('.widget-slider .noUi-handle').first();
    await h.focus();
    await h.press('ArrowRight');
    const page = await nb.shows(c, '4 cubed = 64');
    await nb.run('iN.SetValue(5)');
    return { initial, page, kernel: await nb.shows(c, '5 cubed = 125') };
  },

  // 50 quick moves of a slider: the kernel may coalesce, but the last value is computed.
  async QuickMoves(nb) {
    const c = (await nb.run(`oQuick := widget.NewOutput()
sQuick := widget.NewIntSlider("quick", 0, 100, 0)
computed := 0
sQuick.OnChange(func(v int) { computed++; say(oQuick, "computed %d for %d", v*v, v) })
widget.NewVBox(sQuick, oQuick)`)).cell;
    const h = nb.cell(c).locator('.widget-slider .noUi-handle').first();
    await h.focus();
    for (let i = 0; i < 50; i++) {
      await h.press('ArrowRight', { delay: 0 });
    }
    const page = await nb.shows(c, 'computed 2500 for 50');
    const k = await nb.run('fmt.Println("value", sQuick.Value(), "callbacks", computed)');
    const kernel = await nb.shows(k.cell, 'value 50');
    return { page, kernel, callbacks: Number(/callbacks (\d+)/.exec(kernel)[1]) };
  },
};

// The four explorers on the shipped model: open each, change one control, read the redraw.
const EXPLORERS = {
  async setup(nb) {
    await nb.run('import (\n\t"github.com/gptnotes/gptnotes/gpt"\n\t"github.com/gptnotes/gptnotes/live"\n)');
    const r = await nb.run('model, tok, about, err := gpt.Pretrained()\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(about)');
    return nb.text(r.cell);
  },

  async Sampling(nb, shots) {
    const c = (await nb.run('live.Sampling(model, tok, "// The")')).cell;
    await view(nb, c, 'return !!cell.querySelector(".widget-html-content svg rect")', null, 'the distribution');
    const html = () => nb.cell(c).locator('.widget-html-content').last().innerText();
    const before = await html();
    const h = nb.cell(c).locator('.widget-slider .noUi-handle').first(); // temperature
    await h.focus();
    for (let i = 0; i < 6; i++) await h.press('ArrowLeft');
    await view(nb, c, 'return /T\\s*=?\\s*0\\.70/.test(cell.querySelector(".widget-html-content").innerText)', null, 'the figure at T 0.70');
    const after = await html();
    const shot = path.join(outdir, 'sampling-explorer-2.1.png');
    await nb.cell(c).screenshot({ path: shot });
    shots.push(shot);
    return { before: before.split('\n')[0], after: after.split('\n')[0] };
  },

  async Stepper(nb) {
    const c = (await nb.run('live.Stepper(model, tok, "func main() {")')).cell;
    const rows = 'return cell.querySelectorAll(".widget-html-content table tr").length';
    const count = () => nb.page.evaluate(([i, src]) => new Function('cell', src)(document.querySelectorAll('.gn-cell')[i]), [c, rows]);
    await view(nb, c, 'return !!cell.querySelector(".widget-html-content")', null, 'the stepper');
    const before = await count();
    await nb.cell(c).locator('button', { hasText: /^Step$/ }).click();
    await view(nb, c, rows.replace('return ', 'return ') + ' === arg', before + 1, `${before + 1} rows`);
    return { rowsBefore: before, rowsAfter: await count() };
  },

  async Attention(nb) {
    const c = (await nb.run('live.Attention(model, tok, "func add(a, b int) int {")')).cell;
    const head = 'const t = cell.querySelector(".widget-html-content").innerText; return t.includes(arg)';
    await view(nb, c, head, 'layer 0, head 0', 'layer 0, head 0');
    const src0 = await nb.cell(c).locator('img').first().getAttribute('src');
    const h = nb.cell(c).locator('.widget-slider .noUi-handle').nth(1); // head
    await h.focus();
    await h.press('ArrowRight');
    await view(nb, c, head, 'layer 0, head 1', 'layer 0, head 1');
    await view(nb, c, 'const i = cell.querySelector("img"); return i.complete && i.naturalWidth > 0 && i.src !== arg', src0, 'a new heatmap');
    return { after: (await nb.cell(c).locator('.widget-html-content').last().innerText()).split('\n')[0] };
  },

  async Tokens(nb) {
    const c = (await nb.run('live.Tokens("x := 1", "shipped", tok)')).cell;
    await view(nb, c, 'return /\\d+ tokens/.test(cell.innerText)', null, 'the token counts');
    const before = await nb.cell(c).locator('.widget-html-content').last().innerText();
    await nb.cell(c).locator('textarea').fill('for i := 0; i < 10; i++ { fmt.Println(i) }');
    await view(nb, c, 'return cell.querySelector(".widget-html-content").innerText !== arg', before, 'new counts');
    const after = await nb.cell(c).locator('.widget-html-content').last().innerText();
    return { before: before.match(/\d+ tokens/g), after: after.match(/\d+ tokens/g) };
  },
};

const SHORT = ['IntSlider', 'Dropdown', 'Button', 'Text', 'Interact'];
// The checks whose messages are recorded: each control's, without the timing-dependent ones
// (QuickMoves, whose changes the kernel coalesces as they come).
const RECORDED = ['IntSlider', 'FloatSlider', 'Dropdown', 'ToggleButtons', 'RadioButtons', 'Checkbox', 'Button',
  'Text', 'Textarea', 'Play', 'DirectionalLink', 'Label', 'Image', 'Output', 'Layout', 'Interact'];
const FRONTEND = 'ipywidgets 8 front end: @jupyter-widgets/html-manager 1.0.15, controls 5.0.13, base 6.0.12, output 6.0.12; @jupyterlab/services 7.6.6 (tests/widgets8, headless Chromium)';

const { browser, page, errors } = await open(base, token);
const report = { mode, checks: {}, explorers: {}, screenshots: [], errors };
try {
  const nb = new Notebook(page);
  await nb.start();
  await nb.run(SETUP);
  for (const [name, check] of Object.entries(CHECKS)) {
    if (mode === 'short' && !SHORT.includes(name)) continue;
    log('check', name);
    if (recordDir && RECORDED.includes(name)) {
      await page.evaluate(() => gn.record());
    }
    report.checks[name] = await check(nb);
    if (recordDir && RECORDED.includes(name)) {
      const steps = await page.evaluate(() => gn.takeRecording());
      writeFileSync(path.join(recordDir, name + '.json'), JSON.stringify({ control: name, frontend: FRONTEND, steps }, null, 1) + '\n');
    }
  }
  if (mode === 'long') {
    report.explorers.model = await EXPLORERS.setup(nb);
    for (const name of ['Sampling', 'Stepper', 'Attention', 'Tokens']) {
      log('explorer', name);
      report.explorers[name] = await EXPLORERS[name](nb, report.screenshots);
    }
  }
  // A reload: the page shows the same views again, from the kernel's live models, with no cell
  // run (the next cell's execution count follows the last one's), and they still work.
  const views = await nb.views();
  const last = await nb.run('fmt.Println("before the reload")');
  const shot = path.join(outdir, 'widgets8-before-reload.png');
  await page.screenshot({ path: shot, fullPage: true });
  log('reload');
  await page.reload();
  await page.waitForFunction(() => window.gn, null, { timeout: 60000 });
  const restored = await nb.start();
  await page.waitForFunction(n => gn.views() >= n, views, { timeout: 60000 }).catch(() => {});
  const after = await nb.views();
  const next = await nb.run('fmt.Println("after the reload")');
  const c = Object.keys(report.checks).indexOf('IntSlider') >= 0 ? 1 : -1;
  let works = null;
  if (c >= 0) {
    const h = nb.cell(c).locator('.widget-slider .noUi-handle').first();
    await h.focus();
    await h.press('ArrowLeft');
    works = await nb.shows(c, 'int is 7, squared 49');
  }
  report.reload = { views, after, restored: restored.restored, countBefore: last.executionCount, countAfter: next.executionCount, works };
  const shot2 = path.join(outdir, 'widgets8-after-reload.png');
  await page.screenshot({ path: shot2, fullPage: true });
  report.screenshots.push(shot, shot2);
  await page.evaluate(() => gn.shutdown());
} finally {
  console.log(JSON.stringify(report));
  await browser.close();
}
