"""docker-compose.yml and its Dockerfile: no Docker engine runs here, so check that the
compose file parses into one service on the host's loopback with the weights mounted, and that
the image is built by the very Makefile targets `make test` runs."""
import pathlib
import re
import subprocess

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_compose_file_describes_one_service():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert list(services) == ["gptnotes"]
    svc = services["gptnotes"]
    assert svc["build"] == "."
    assert svc["ports"] == ["127.0.0.1:8888:8888"], "serve only on the host's loopback"
    # SOURCE:TARGET[:MODE]; the source may hold ${VAR:-default}, so split from the right.
    mounts = [v.rsplit(":", 2) if v.endswith((":ro", ":rw")) else v.rsplit(":", 1)
              for v in svc["volumes"]]
    assert ["./notebooks", "/gptnotes/notebooks"] in [m[:2] for m in mounts]
    weights = [m for m in mounts if m[1] == "/weights"]
    assert weights, "an optional weights directory is mounted at /weights"
    assert svc["environment"]["GPT2_WEIGHTS"] == "/weights"


def test_image_builds_with_the_tested_targets():
    steps = [l.split(None, 1)[1] for l in (ROOT / "Dockerfile").read_text().splitlines()
             if l.startswith("RUN ")]
    assert steps == ["make deps build"], steps
    # Both targets exist and are the ones `make test` depends on.
    out = subprocess.run(["make", "-n", "-p", "test"], cwd=ROOT, capture_output=True, text=True).stdout
    test_rule = re.search(r"^test: (.*)$", out, re.M).group(1).split()
    assert "build" in test_rule
    build_rule = re.search(r"^build: (.*)$", out, re.M).group(1).split()
    assert "deps" in build_rule
    cmd = re.search(r'^CMD \[(.*)\]$', (ROOT / "Dockerfile").read_text(), re.M).group(1)
    assert '"bin/gptnotes", "notebook"' in cmd
