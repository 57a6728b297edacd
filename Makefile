# gptnotes: the two commands a user needs are `make notebook` and `make test`.
# Both install what is missing on a Debian 12 machine (as root), build, and go.

GO      ?= go
PYTHON  := /usr/bin/python3
BIN     := bin/gptnotes
# The fast build links OpenBLAS through gonum's netlib bindings; `make build-purego` skips it.
TAGS    := openblas
export CGO_LDFLAGS := -lopenblas

# Debian packages the project needs: Jupyter (kernel tests, notebooks), numpy (reference
# tensors), OpenBLAS (matrix products), Chromium (the browser test).
APT_PACKAGES := python3-jupyter-client jupyter-client jupyter-notebook python3-nbclient \
	jupyter-nbconvert python3-ipykernel python3-jupyter-kernel-test python3-numpy \
	python3-pytest python3-yaml libopenblas-dev chromium

.PHONY: all build build-purego deps notebook test test-go test-python generate bench reproduce clean

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
test: build test-go test-python

test-go:
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -tags $(TAGS) ./gpt/...

test-python: build
	GPTNOTES_BIN=$(abspath $(BIN)) $(PYTHON) -m pytest -q tests

generate:
	$(GO) generate ./...

bench: build
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchtime 3x ./...

reproduce: build
	$(BIN) reproduce --out reproduce-out

clean:
	rm -rf bin reproduce-out test-output
