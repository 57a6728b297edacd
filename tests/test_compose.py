"""docker-compose.yml, the Dockerfile (the single-user image) and deploy/hub.Dockerfile: no
Docker engine runs here, so check what can be checked without one: the compose file parses
into a notebook service on the host's loopback and a class profile (hub + DockerSpawner); the
image is built by the Makefile targets the tests run, installs only the run-time packages, and
runs as a non-root user."""
import pathlib
import re
import subprocess

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent


def make_var(name):
    out = subprocess.run(["make", "-pn", "all"], cwd=ROOT, capture_output=True, text=True).stdout
    m = re.search(rf"^{name} := (.*)$", out, re.M)
    assert m, name
    return m.group(1).replace("\\", " ").split()


def test_compose_file_describes_a_notebook_service_and_a_class():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"gptnotes", "singleuser-image", "hub"}
    svc = services["gptnotes"]
    assert "profiles" not in svc, "`docker compose up` starts the notebook service"
    assert svc["build"] == "." and svc["image"] == "gptnotes-singleuser"
    assert svc["ports"] == ["127.0.0.1:8888:8888"], "serve only on the host's loopback"
    # SOURCE:TARGET[:MODE]; the source may hold ${VAR:-default}, so split from the right.
    mounts = [v.rsplit(":", 2) if v.endswith((":ro", ":rw")) else v.rsplit(":", 1)
              for v in svc["volumes"]]
    assert ["./notebooks", "/home/student/gptnotes"] in [m[:2] for m in mounts]
    weights = [m for m in mounts if m[1] == "/weights"]
    assert weights, "an optional weights directory is mounted at /weights"
    assert svc["environment"]["GPT2_WEIGHTS"] == "/weights"

    hub = services["hub"]
    assert hub["profiles"] == ["class"]
    assert hub["build"]["dockerfile"] == "deploy/hub.Dockerfile"
    assert hub["ports"] == ["127.0.0.1:8000:8000"]
    env = hub["environment"]
    assert env["GPTNOTES_HUB"] == "docker"
    assert env["GPTNOTES_IMAGE"] == services["singleuser-image"]["image"] == svc["image"]
    assert env["GPTNOTES_DOCKER_NETWORK"] == compose["networks"]["class"]["name"]
    assert any(v.startswith("/var/run/docker.sock:") for v in hub["volumes"])


def test_image_builds_with_the_tested_targets_and_no_test_packages():
    text = (ROOT / "Dockerfile").read_text()
    joined = text.replace("\\\n", " ")  # continuation lines
    steps = [l.split(None, 1)[1] for l in joined.splitlines() if l.startswith("RUN ")]
    assert steps[0] == "make build DEPS=deps-build", steps
    assert "deps-run" in steps[1], steps
    out = subprocess.run(["make", "-n", "-p", "test"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "build" in re.search(r"^test: (.*)$", out, re.M).group(1).split()
    run, test = set(make_var("RUN_PACKAGES")), set(make_var("TEST_PACKAGES"))
    assert "jupyterhub" in run and "jupyter-notebook" in run
    assert not run & test, run & test
    for pkg in ["chromium", "python3-pytest", "python3-nbclient", "python3-jupyter-kernel-test", "npm"]:
        assert pkg not in text and pkg not in run, pkg
    users = re.findall(r"^USER (\S+)$", text, re.M)
    assert users and users[-1] not in ("root", "0"), users
    cmd = re.search(r'^CMD \[(.*)\]$', text, re.M).group(1)
    assert '"gptnotes-start-singleuser"' in cmd
    assert "COPY deploy/start-singleuser /usr/local/bin/gptnotes-start-singleuser" in text
    assert "gptnotes install --user=false" in text  # the kernelspec system-wide
    assert "testdata/gopher.safetensors" in text and "GPTNOTES_MODEL=" in text


def test_hub_image_runs_the_shared_configuration():
    text = (ROOT / "deploy" / "hub.Dockerfile").read_text()
    assert "COPY deploy/jupyterhub_config.py" in text
    assert "GPTNOTES_HUB=docker" in text
    assert re.search(r"dockerspawner==\d", text)
