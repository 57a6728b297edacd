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

# Debian packages the project needs: Jupyter (kernel tests, notebooks), numpy (reference
# tensors), OpenBLAS (matrix products), Chromium (the browser test).
APT_PACKAGES := python3-jupyter-client jupyter-client jupyter-notebook python3-nbclient \
	jupyter-nbconvert python3-ipykernel python3-jupyter-kernel-test python3-numpy \
	python3-pytest python3-yaml libopenblas-dev chromium

.PHONY: all build build-purego deps notebook test test-go test-python generate bench reproduce clean
.PHONY: fuzz test-fuzz record-widgets

all: build

# deps installs only the Debian packages that are missing, with one apt-get update.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@if [ -f tests/browser/package.json ] && [ ! -d tests/browser/node_modules ]; then \
	  cd tests/browser && npm ci --no-audit --no-fund --silent; fi

build: deps
	$(GO) build -tags $(TAGS) -o $(BIN) ./kernel/cmd/gptnotes

build-purego:
	$(GO) build -o $(BIN) ./kernel/cmd/gptnotes

notebook: build
	$(BIN) notebook

# test runs every test: Go (pure-Go and OpenBLAS builds), then the Python-driven ones
# (jupyter_client protocol tests, the conformance suite, notebooks, the browser).
# test-fuzz, between them, gives each fuzz target 5 seconds.
test: build test-go test-fuzz test-python

test-go:
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -tags $(TAGS) ./gpt/...

# test-fuzz is `make fuzz` in short.
# Each starts from its committed seeds alone (a fresh fuzz cache): the inputs an earlier long
# `make fuzz` left in the machine's cache would take the short run's time just to replay. The
# time includes replaying the seeds, so FuzzCell (about 110 seeds, each type-checked) gets 20 s.
# FuzzCell does not minimize what it finds: its worker dies while minimizing after 10–100 s
# (an open fault, see the README's Fuzzing section); without minimizing it runs clean.
test-fuzz:
	d=$$(mktemp -d) && $(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime 5s ./kernel -test.fuzzcachedir $$d/decode && \
	  $(GO) test -run '^$$' -fuzz '^FuzzCell$$' -fuzztime 20s -fuzzminimizetime 0s ./kernel/internal/session -test.fuzzcachedir $$d/cell; \
	  rc=$$?; rm -rf $$d; exit $$rc

test-python: build
	GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) -m pytest -q tests

generate:
	$(GO) generate ./...

# fuzz runs each fuzz target for FUZZTIME: the wire decoder, then the cell rewriter. Go fuzzes one
# target per package per run, so one line each; a failing input is written to the package's
# testdata/fuzz/<target>/ and replays in every later go test.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./kernel
	$(GO) test -run '^$$' -fuzz '^FuzzCell$$' -fuzztime $(FUZZTIME) ./kernel/internal/session

bench: build
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchtime 3x ./...

reproduce: build
	$(BIN) reproduce --out reproduce-out

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
