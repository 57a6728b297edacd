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
# nbclient and the conformance suite, numpy (reference tensors), pytest, PyYAML, Chromium (the
# browser test), and the hub's proxy (named, though jupyterhub pulls it in, as the hub test needs it).
RUN_PACKAGES := python3-jupyter-client jupyter-client jupyter-notebook python3-ipykernel \
	jupyterhub libopenblas0
BUILD_PACKAGES := libopenblas-dev
TEST_PACKAGES := python3-nbclient jupyter-nbconvert python3-jupyter-kernel-test python3-numpy \
	python3-pytest python3-yaml chromium node-configurable-http-proxy
APT_PACKAGES := $(RUN_PACKAGES) $(BUILD_PACKAGES) $(TEST_PACKAGES)
# DOCKER_PACKAGES only `make test-docker` needs: Debian's engine, its Compose (v1; Debian 12 has
# no compose plugin) and debootstrap, which makes the base image without a registry.
DOCKER_PACKAGES := docker.io docker-compose debootstrap

.PHONY: all build build-purego deps deps-build deps-run notebook test test-go test-python generate bench reproduce clean
.PHONY: test-docker fuzz test-fuzz bench-class bench-speed tidy cross record-widgets docs

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
test: build test-go test-fuzz test-python

test-go: tidy cross
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -tags $(TAGS) ./gpt/...

# tidy fails when go.mod or go.sum is not what `go mod tidy` would write (it prints the diff).
tidy:
	$(GO) mod tidy -diff

# cross checks that every package, tests included, builds for the laptops students bring, on
# the pure-Go path (no cgo, no OpenBLAS; the amd64 assembly only where GOARCH is amd64). On
# Windows, kernel/internal/session cannot capture a cell's output at the descriptor level
# (capture.go redirects fds 1 and 2 through pipes, fd_linux.go and fd_darwin.go), so it and the
# packages that import it are left out there (CROSS_SKIP_WINDOWS) until it can.
CROSS_TARGETS      := darwin/arm64 linux/arm64 windows/amd64
CROSS_SKIP_WINDOWS := kernel/internal/session|kernel/engine|cmd/gptnotes|kernel/internal/excorpus
cross:
	@for t in $(CROSS_TARGETS); do \
	  pkgs=$$($(GO) list ./...); \
	  if [ "$${t%/*}" = windows ]; then pkgs=$$(echo "$$pkgs" | grep -v -E '/($(CROSS_SKIP_WINDOWS))$$'); fi; \
	  echo "go vet for $$t (pure Go)"; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) vet $$pkgs || exit 1; \
	done

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

test-python: build
	GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) -m pytest -q tests

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

bench: build
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchtime 3x ./...

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

# record-widgets records what Debian's ipywidgets 6 (the reference kernel side of the widget
# protocol) sends for each control, through ipykernel and jupyter_client, into
# kernel/widget/testdata/ipywidgets6/, which kernel/widget's tests compare the Go widgets with.
# Not part of `make test`: the recordings are committed.
record-widgets:
	$(PYTHON) kernel/widget/testdata/record.py
