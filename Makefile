# gptnotes: the two commands a user needs are `make notebook` and `make test`.
# Both install what is missing on a Debian 12 machine (as root), build, and go.

GO      ?= go
PYTHON  := /usr/bin/python3
BIN     := bin/gptnotes
# The fast build links OpenBLAS through gonum's netlib bindings; `make build-purego` skips it.
TAGS    := openblas
# How long `make fuzz` runs each fuzz target (a go test -fuzztime: 60s, 10m, 100000x).
FUZZTIME ?= 60s
export CGO_LDFLAGS := -lopenblas

# Debian packages the project needs, in three lists. RUN_PACKAGES is what a notebook server
# with gptnotes needs at run time (Jupyter; JupyterHub, for its single-user server and the
# class's hub; OpenBLAS); the single-user image (the Dockerfile) installs these alone.
# BUILD_PACKAGES builds the binary (OpenBLAS's headers). TEST_PACKAGES only the tests need:
# nbclient and the conformance suite, numpy (reference tensors), pytest and pytest-xdist
# (test-python's two workers), PyYAML, Chromium (the browser test), the hub's proxy (named, though jupyterhub pulls it in, as the hub test needs it),
# and jsonschema (saved widget state checked against ipywidgets' schema, by tests and `make docs`).
RUN_PACKAGES := python3-jupyter-client jupyter-client jupyter-notebook python3-ipykernel \
	jupyterhub libopenblas0
BUILD_PACKAGES := libopenblas-dev
TEST_PACKAGES := python3-nbclient jupyter-nbconvert python3-jupyter-kernel-test python3-numpy \
	python3-pytest python3-pytest-xdist python3-yaml chromium node-configurable-http-proxy python3-jsonschema
# LAPTOP_PACKAGES run the builds students' laptops get, here (make test-arm64, make test-windows):
# qemu-user-static runs linux/arm64 binaries, wine64 the Windows build, and the mingw-w64 compiler
# builds the bcryptprimitives.dll that Debian 12's wine needs to start a Go program (tests/wine/).
LAPTOP_PACKAGES := qemu-user-static wine64 gcc-mingw-w64-x86-64
APT_PACKAGES := $(RUN_PACKAGES) $(BUILD_PACKAGES) $(TEST_PACKAGES) $(LAPTOP_PACKAGES)
# DOCKER_PACKAGES only `make test-docker` needs: Debian's engine, its Compose (v1; Debian 12 has
# no compose plugin) and debootstrap, which makes the base image without a registry.
DOCKER_PACKAGES := docker.io docker-compose debootstrap

.PHONY: all build build-purego deps deps-build deps-run notebook test test-go test-python generate bench reproduce clean
.PHONY: test-docker fuzz test-fuzz test-hostile test-class-hostile bench-class bench-speed bench-torch deps-torch tidy cross record-widgets docs
.PHONY: test-laptops test-arm64 test-windows arm64-logits test-exercises test-widgets8 record-widgets8

all: build

# apt_install installs those of the packages $(1) that are missing, with one apt-get update.
define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

# deps installs every package the project needs (run, build, test) that is missing.
deps:
	$(call apt_install,$(APT_PACKAGES))
	@if [ -f tests/browser/package.json ] && [ ! -d tests/browser/node_modules ]; then \
	  cd tests/browser && npm ci --no-audit --no-fund --silent; fi
	@if [ -f tests/widgets8/package.json ] && [ ! -d tests/widgets8/node_modules ]; then \
	  cd tests/widgets8 && npm ci --no-audit --no-fund --silent; fi

# deps-build installs only what building the binary needs.
deps-build:
	$(call apt_install,$(BUILD_PACKAGES))

# deps-run installs only what a notebook server with gptnotes needs at run time (the image's).
deps-run:
	$(call apt_install,$(RUN_PACKAGES))

# DEPS is what build installs first: everything (deps), or only what building needs
# (deps-build, as the image's build stage does: `make build DEPS=deps-build`).
DEPS ?= deps
build: $(DEPS)
	$(GO) build -tags $(TAGS) -o $(BIN) ./cmd/gptnotes

build-purego:
	$(GO) build -o $(BIN) ./cmd/gptnotes

notebook: build
	$(BIN) notebook

# test runs every test: Go (pure-Go and OpenBLAS builds), then the Python-driven ones
# (jupyter_client protocol tests, the conformance suite, notebooks, the browser).
# test-fuzz, between them, gives each fuzz target 5 seconds.
test: build test-go test-fuzz test-python test-laptops

test-go: tidy cross
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -tags $(TAGS) ./gpt/...

# tidy fails when go.mod or go.sum is not what `go mod tidy` would write (it prints the diff).
tidy:
	$(GO) mod tidy -diff

# cross builds every package, tests included, for the laptops students bring, on the pure-Go path
# (no cgo, no OpenBLAS; the amd64 assembly only where GOARCH is amd64), and links the gptnotes
# binary for each (into test-output/laptops/), which test-laptops, test-arm64 and test-windows run.
CROSS_TARGETS := darwin/arm64 linux/arm64 windows/amd64
LAPTOPS       := test-output/laptops
cross:
	@mkdir -p $(LAPTOPS)
	@for t in $(CROSS_TARGETS); do \
	  echo "go build and vet for $$t (pure Go)"; \
	  export GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0; \
	  $(GO) build ./... && $(GO) vet ./... && \
	  $(GO) build -o $(LAPTOPS)/gptnotes-$${t%/*}-$${t#*/}$$([ $${t%/*} = windows ] && echo .exe) ./cmd/gptnotes || exit 1; \
	done

# The linux/arm64 build (Apple silicon's and ARM Linux laptops' CPU: NEON products, the rest Go loops) runs
# under qemu-user, the Windows build under wine (tests/wine/run.sh); the Python tests start the
# kernel through them ($$GPTNOTES_EXEC). docs/laptops.md says what each runs and how long it takes.
QEMU      := qemu-aarch64-static
WINE      := $(abspath tests/wine/run.sh)
ARM64_BIN := $(abspath $(LAPTOPS))/gptnotes-linux-arm64
WIN_BIN   := $(abspath $(LAPTOPS))/gptnotes-windows-amd64.exe
ARM64_ENV := GOOS=linux GOARCH=arm64 CGO_ENABLED=0
WIN_ENV   := GOOS=windows GOARCH=amd64 CGO_ENABLED=0
# The protocol tests of the short forms: start, execute with output, interrupt.
LAPTOP_SHORT := kernel_info or busy_outputs or interrupt_request

# arm64-logits computes the shipped model's logits on this machine's build, then on the arm64
# build under qemu, and fails when they differ by more than 1e-4 (gpt/shipped_logits_test.go).
arm64-logits:
	@mkdir -p $(LAPTOPS)
	$(GO) test -count=1 -run '^TestShippedLogitsMatchReference$$' ./gpt -args -logits.write=$(abspath $(LAPTOPS))/logits.bin
	$(ARM64_ENV) $(GO) test -count=1 -exec $(QEMU) -run '^TestShippedLogitsMatchReference$$' ./gpt -args -logits.ref=$(abspath $(LAPTOPS))/logits.bin

# test-laptops is the short form in make test: the logits and the NEON kernels against Go
# loops (gpt/internal/fast's tests), and the kernel's start, output and interrupt through
# jupyter_client, on arm64 under qemu and on Windows under wine.
test-laptops: cross arm64-logits
	$(ARM64_ENV) $(GO) test -count=1 -exec $(QEMU) ./gpt/internal/fast
	GPTNOTES_BIN=$(ARM64_BIN) GPTNOTES_EXEC=$(QEMU) $(PYTHON) -m pytest -q tests/test_kernel_protocol.py -k '$(LAPTOP_SHORT)'
	GPTNOTES_BIN=$(WIN_BIN) GPTNOTES_EXEC=$(WINE) $(PYTHON) -m pytest -q tests/test_kernel_protocol.py -k '$(LAPTOP_SHORT)'

# test-arm64 runs the tokenizer's, the fast kernels' and the model's tests (short mode) as
# linux/arm64 binaries under qemu, one package at a time, the logits check, and the arm64 kernel
# through the protocol tests and the conformance suite. It took 11 minutes here (load 8 → 6;
# docs/laptops.md). Of gpt's tests it leaves out ARM64_SKIP: slow under emulation
# and nothing in them is arm64's. The forward, the cached decode, generation with hooks, bf16,
# the caches, backward and checkpoint loading all run; what these add is Go bookkeeping over them:
#   TestHeadAblationShipped, TestActivationPatchingShipped and their two examples: hundreds of
#     hooked forwards of the shipped model (80 s natively on Go loops: about half an hour under
#     qemu by the ratio measured on the others, not run); the hooked forward runs in
#     TestRunWithHooks*, and TestGeneratorHooks runs HeadAblation itself;
#   TestShippedModelFitsGo, TestShippedModelWritesGo: the shipped model's quality on Go source,
#     which follows from its logits equalling amd64's (arm64-logits);
#   TestGeneratorCountsPositions: counts the positions of 832 uncached steps (9 min under qemu);
#     the cached and uncached loops are compared in TestCacheGrowthKeepsPositions and others;
#   TestResidualGrowth: the study's figure at init at GPT-2's width, 170M random normals (4.5 min).
# make test-go runs them all on amd64, without -short.
ARM64_SKIP := ^(TestHeadAblationShipped|TestActivationPatchingShipped|ExampleModel_HeadAblation|ExampleModel_ActivationPatching|TestShippedModelFitsGo|TestShippedModelWritesGo|TestGeneratorCountsPositions|TestResidualGrowth)$$
test-arm64: cross arm64-logits
	$(ARM64_ENV) $(GO) test -count=1 -short -p 1 -timeout 20m -exec $(QEMU) ./tokenizer ./gpt/internal/fast
	$(ARM64_ENV) $(GO) test -count=1 -short -timeout 30m -exec $(QEMU) -skip '$(ARM64_SKIP)' ./gpt
	GPTNOTES_BIN=$(ARM64_BIN) GPTNOTES_EXEC=$(QEMU) $(PYTHON) -m pytest -q tests/test_kernel_protocol.py tests/test_kernel_conformance.py

# test-windows runs the session package's tests (capture, interrupts, cells) as a Windows
# binary under wine, then the Windows kernel through the protocol tests, the conformance suite
# and the memory guard's tests, and notebooks 00 and 01 top to bottom.
test-windows: cross
	$(WIN_ENV) $(GO) test -count=1 -short -exec $(WINE) ./kernel/internal/session
	GPTNOTES_BIN=$(WIN_BIN) GPTNOTES_EXEC=$(WINE) $(PYTHON) -m pytest -q tests/test_kernel_protocol.py \
	  tests/test_kernel_conformance.py tests/test_kernel_memlimit.py tests/test_notebook_00.py \
	  tests/test_notebooks.py::test_01_tokenizer

# test-fuzz is `make fuzz` in short.
# Each starts from its committed seeds alone (a fresh fuzz cache): the inputs an earlier long
# `make fuzz` left in the machine's cache would take the short run's time just to replay.
# The budgets are counts of inputs, not seconds: with a time budget, Go 1.26's fuzzing
# coordinator can fail a run that found nothing with "context deadline exceeded" when a busy
# worker misses the deadline's shutdown (golang/go#75804, fixed in Go 1.27); it did so here once,
# at load 5-10. 20,000 decodes take about 5 s, and 8,000 cells about 15 s after the ~210 seeds
# are type-checked, on an idle machine.
# FuzzCell does not minimize what it finds: its worker dies while minimizing after 10–100 s
# (an open fault, see docs/kernel.md, "Fuzzing"); without minimizing it runs clean.
test-fuzz:
	d=$$(mktemp -d) && $(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime 20000x ./kernel -test.fuzzcachedir $$d/decode && \
	  $(GO) test -run '^$$' -fuzz '^FuzzCell$$' -fuzztime 8000x -fuzzminimizetime 0s ./kernel/internal/session -test.fuzzcachedir $$d/cell; \
	  rc=$$?; rm -rf $$d; exit $$rc

# The exercise checks run twice each here (each must give the same verdict every time).
# Two pytest-xdist workers, one test file each at a time (loadfile keeps module fixtures run once):
# the suite took 341 s against 508 s in one process, the two run one after the other at load 3-7.
# test-exercises is their long form, five times each.
test-python: build
	GPTNOTES_CHECK_RUNS=2 GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) -m pytest -q -n 2 --dist loadfile tests

test-exercises: build
	GPTNOTES_CHECK_RUNS=5 GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) -m pytest -q tests/test_exercises.py

# test-widgets8 is the long form of tests/test_widgets8_browser.py: ipywidgets 8's own front end
# (the npm packages of tests/widgets8/) against a live kernel in headless Chromium, every control
# type both ways, Interact, the four explorers, 50 quick slider moves and a page reload. make test
# runs its short form (a few controls, Interact, the reload).
test-widgets8: build
	GPTNOTES_WIDGETS8=long GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) -m pytest -q tests/test_widgets8_browser.py

# test-hostile grades submissions written to cheat `gptnotes grade` or corrupt its records, one
# per case of docs/grading.md's threat model, and the made-up class of tests/test_grade.py beside
# them (a few minutes). make test runs a short form of test_hostile.py: three of the cheats with
# the records in one run, issue 47's attacks but the recursion in another, on 07-exercises cut
# before exercise 5 (8.3-10.8 s, median 10.1 s, against 8.5-13.1 s, median 10.6 s, for the
# short form before issue 47 (1e2568a), in five runs of each alternated at a load of 11-12: 0.95x).
test-hostile: build
	GPTNOTES_HOSTILE=all GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) -m pytest -q tests/test_hostile.py tests/test_grade.py

# test-class-hostile is the long form of issue 48's class attacks: the hub test attacks every
# student's kernel as the user nobody (make test: the first student's), then the kernel's own
# hostile-peer tests and the configuration tests of the Docker and Kubernetes classes.
test-class-hostile: build
	GPTNOTES_HOSTILE_CLASS=all GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) -m pytest -q tests/test_hub.py \
		tests/test_hub_config.py tests/test_compose.py tests/test_z2jh_values.py tests/test_start_singleuser.py \
		tests/test_kernel_bad_input.py tests/test_kernel_memlimit.py
	$(GO) test -count=1 -run 'TestKernelSurvivesHostilePeers|TestKernelIPCSocketsArePrivate|MemGuard' ./kernel

generate:
	$(GO) generate ./...

# test-docker builds the single-user image and runs `docker compose up` for real, checked through
# 127.0.0.1, then takes it all down (tests/docker/up.sh; minutes, so not part of `make test`).
test-docker:
	$(call apt_install,$(DOCKER_PACKAGES))
	nice -n 10 tests/docker/up.sh

# fuzz runs each fuzz target for FUZZTIME: the wire decoder, then the cell rewriter. Go fuzzes one
# target per package per run, so one line each; a failing input is written to the package's
# testdata/fuzz/<target>/ and replays in every later go test.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./kernel
	$(GO) test -run '^$$' -fuzz '^FuzzCell$$' -fuzztime $(FUZZTIME) ./kernel/internal/session

# bench-class plays a class of 20 students on a real JupyterHub on this machine, for at most
# 10 minutes, and prints the figures docs/class.md quotes (tests/bench_class.py).
bench-class: build
	GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) tests/bench_class.py --students 20 --seed 1
	uptime

# bench-speed prints the bf16 rows of docs/performance.md's measurement log, each section with the load (two minutes).
bench-speed: build
	GPTNOTES_BIN=$(abspath $(BIN)) tests/bench_speed.sh

# bench-torch puts GPT-2 Small's forward over 1,024 positions and its cached decode beside
# PyTorch's (Debian's python3-torch, installed if missing), fp32 and bf16, the two sides taking
# turns, and prints ours/PyTorch with the load (tests/bench_torch.py; a few minutes).
bench-torch: build deps-torch
	GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) tests/bench_torch.py

# deps-torch installs PyTorch, which only the side-by-side benchmarks need.
deps-torch:
	$(call apt_install,python3-torch)

bench: build
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchtime 3x ./...

# lesson-model retrains testdata/induction.safetensors, the two-layer attention-only model
# notebook 3c runs on, and prints its induction gate (docs/model-card.md, "The lesson model":
# about 30 minutes here at load 2-17).
.PHONY: lesson-model
lesson-model: build
	$(BIN) train --tokenizer testdata/gopher.tok --attn-only --layers 2 --heads 4 --width 64 \
	  --block 64 --batch 16 --steps 20000 --lr 2e-3 --min-lr 2e-3 --warmup 200 --repeated 0.5 \
	  --eval-every 500 --eval-batches 4 --checkpoint-every 500 --out testdata/induction.safetensors
	$(BIN) evalmodel --samples 0 --head-windows 0 --gate-n 15 testdata/induction.safetensors

reproduce: build
	$(BIN) reproduce --out reproduce-out

# docs executes every notebook on the shipped model and writes the executed copies, outputs
# included, to docs/notebooks/ (docs/execute_notebooks.py), so GitHub shows their figures.
docs: build
	GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) docs/execute_notebooks.py

clean:
	rm -rf bin reproduce-out test-output

# corpus runs a sample of the Go distribution's own Example functions (testdata/examples.txt,
# made by `go run ./kernel/internal/excorpus pick -n 400 -seed 1`) through the kernel and compares
# their output with their // Output: comments. A measurement: it exits 0 whatever the kernel does.
# It links no OpenBLAS (the empty CGO_LDFLAGS), so it needs none of `deps`.
.PHONY: corpus
corpus:
	CGO_LDFLAGS= $(GO) run ./kernel/internal/excorpus run -list testdata/examples.txt -out corpus-report.txt
	cat corpus-report.txt

# gotests runs the // run programs of the Go distribution's test directory (testdata/gotests.txt,
# made by `go run ./kernel/internal/excorpus testpick`) through the kernel, each pasted whole into
# one cell, and compares their output with the .out files (nothing, when a program has none). A
# measurement: it exits 0 whatever the kernel does. Without OpenBLAS, as corpus. 964 programs
# (top level, ken, chan, interface, fixedbugs, typeparam): 3-4 minutes on two shared cores.
.PHONY: gotests
gotests:
	CGO_LDFLAGS= $(GO) run ./kernel/internal/excorpus testrun -list testdata/gotests.txt -out gotests-report.txt
	cat gotests-report.txt

# modules fetches real modules through GOPROXY with kernel/modules (as a cell's import does),
# runs each one's Example functions through the kernel, and compares them with their // Output:
# comments and with `go test -run Example` in a copy of the module (docs/modules.md has the
# table). Needs the network. A measurement: it exits 0 whatever the kernel does.
.PHONY: modules
modules:
	CGO_LDFLAGS= $(GO) run ./kernel/internal/excorpus modrun -out modules-report.txt
	cat modules-report.txt

# record-widgets records what Debian's ipywidgets 6 (the reference kernel side of the widget
# protocol) sends for each control, through ipykernel and jupyter_client, into
# kernel/widget/testdata/ipywidgets6/, which kernel/widget's tests compare the Go widgets with.
# Not part of `make test`: the recordings are committed.
record-widgets:
	$(PYTHON) kernel/widget/testdata/record.py

# record-widgets8 records what ipywidgets 8's own front end (tests/widgets8, in headless Chromium)
# and the kernel say to each other in each control check of the long browser test, into
# kernel/widget/testdata/ipywidgets8/, which kernel/widget's TestRecordings8 replays.
# Not part of `make test`: the recordings are committed.
record-widgets8: build
	GPTNOTES_WIDGETS8=long GPTNOTES_WIDGETS8_RECORD=$(abspath kernel/widget/testdata/ipywidgets8) \
	  GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) -m pytest -q tests/test_widgets8_browser.py -k in_the_browser
