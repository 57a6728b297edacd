"""The interactive figures that `gptnotes reproduce` writes, in a real browser: headless
Chromium loads the page as nbconvert's HTML export would show it (no kernel, no network),
moves the controls, and reports which frame is shown and what the value label says."""
import os
import pathlib
import re
import shutil
import subprocess

import pytest

BIN = os.environ.get("GPTNOTES_BIN", str(pathlib.Path(__file__).resolve().parent.parent / "bin" / "gptnotes"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# After the slider's own script: set control i to value v, fire "input" as a drag does, and
# record the visible frames and the value labels in a data attribute that --dump-dom prints.
PROBE = """
<script>
var root = document.querySelector('.gptnotes-slider'), id = root.id;
function shown() {
  var r = [];
  root.querySelectorAll('[id^="' + id + '-f"]').forEach(function (f) {
    if (f.style.display !== 'none') r.push(f.id.slice(id.length + 2));
  });
  return r.join(',');
}
var log = [shown()];
%s.forEach(function (m) {
  var c = document.getElementById(id + '-c' + m[0]);
  c.value = String(m[1]);
  c.dispatchEvent(new Event('input'));
  var out = document.getElementById(id + '-c' + m[0] + '-v');
  log.push(shown() + ':' + (out ? out.textContent : c.options[c.selectedIndex].text));
});
document.body.setAttribute('data-probe', log.join(' '));
</script>
"""


def probe(page: pathlib.Path, moves, tmp_path):
    html = page.read_text().replace("</body>", PROBE % moves + "</body>")
    test = tmp_path / ("probe-" + page.name)
    test.write_text(html)
    out = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          test.as_uri()], capture_output=True, text=True, timeout=120).stdout
    m = re.search(r'data-probe="([^"]*)"', out)
    assert m, "the probe script did not run:\n" + out[-2000:]
    return m.group(1).split(" ")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    out = tmp_path_factory.mktemp("reproduce")
    subprocess.run([BIN, "reproduce", "--out", str(out), "--only", "positions,kv-cache"], check=True,
                   capture_output=True, timeout=300)
    return out


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (make deps installs it)")
def test_budget_slider_moves_through_frames(pages, tmp_path):
    # Controls: model (small, medium, large, xl), dtype (fp32, bf16), batch 1…16.
    # Start: xl, bf16, batch 1 = frame (3*2+1)*16+0 = 112.
    log = probe(pages / "budget_slider.html", "[[0, 0], [2, 9], [1, 0]]", tmp_path)
    assert log == ["112", "16:small", "25:10", "9:fp32"], log


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (make deps installs it)")
def test_positions_slider_parts_the_counts(pages, tmp_path):
    # 32 frames for 16, 32, … 512 new tokens; the 16th is 256.
    log = probe(pages / "positions_slider.html", "[[0, 15], [0, 31]]", tmp_path)
    assert log[1:] == ["15:256", "31:512"], log
    page = (pages / "positions_slider.html").read_text()
    assert "35,456 positions without a cache, 266 with one" in page
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
        'xmlns:xlink="http://www.w3.org/1999/xlink"', ""), "the page must not load anything"
