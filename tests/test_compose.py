"""docker-compose.yml, the Dockerfile (the single-user image) and deploy/hub.Dockerfile: no
Docker engine is needed here (`make test-docker` runs the image for real), so check what can be checked without one: the compose file parses
into a notebook service on the host's loopback and a class profile (hub + DockerSpawner); the
image is built by the Makefile targets the tests run, installs only the run-time packages, and
runs as a non-root user."""
import os
import pathlib
import re
import shutil
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
    assert steps[0].split("&&")[0].strip() == "make build DEPS=deps-build", steps  # then the course split
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
    assert "testdata/induction.*" in text  # notebook 3c's lesson model (and its tokenizer, if it has its own), beside the shipped one


def test_hub_image_runs_the_shared_configuration():
    text = (ROOT / "deploy" / "hub.Dockerfile").read_text()
    assert "COPY deploy/jupyterhub_config.py" in text
    assert "GPTNOTES_HUB=docker" in text
    assert re.search(r"dockerspawner==\d", text)


def test_the_notebook_service_needs_none_of_the_class_variables():
    """Compose interpolates every service's variables, profile or not: a required one (`${X:?}`)
    in the hub stopped `docker compose up` of the notebook service. The hub's configuration
    checks its roster itself (deploy/jupyterhub_config.py)."""
    text = (ROOT / "docker-compose.yml").read_text()
    assert not re.search(r"\$\{[A-Z_]+:?\?", text), "no variable may be required"
    assert "GPTNOTES_HUB_ROSTER" in (ROOT / "deploy" / "jupyterhub_config.py").read_text()
    if shutil.which("docker-compose"):  # Debian's compose parses the file without an engine
        env = {k: v for k, v in os.environ.items() if not k.startswith("GPTNOTES_HUB_")}
        out = subprocess.run(["docker-compose", "config", "--services"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and "gptnotes" in out.stdout.split(), out.stderr


def test_the_service_limits_the_kernels_memory():
    svc = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["gptnotes"]
    assert "GPTNOTES_MEMORY_LIMIT" in svc["environment"]  # kernel/memlimit.go reads it
    assert "mem_limit" in svc  # the container's hard limit, above the kernel's


def test_the_build_context_leaves_out_the_history_and_the_outputs():
    ignored = (ROOT / ".dockerignore").read_text().split()
    for path in [".git", "bin/", "test-output/"]:
        assert path in ignored, path


def test_without_an_engine_test_docker_says_so_and_skips():
    env = {**os.environ, "DOCKER": "/nonexistent/docker"}
    out = subprocess.run([str(ROOT / "tests" / "docker" / "up.sh")], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 77, (out.returncode, out.stderr)
    assert "no Docker engine" in out.stderr and "install docker.io" in out.stderr, out.stderr
    assert out.stdout == "", "nothing started"


def test_the_class_network_is_internal_and_containers_are_limited():
    """Issue 48: no egress from the students' network, a process limit, one login each."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    hub = compose["services"]["hub"]
    assert compose["networks"]["class"]["internal"] is True
    assert set(hub["networks"]) == {"class", "front"}  # the hub alone reaches both
    assert "internal" not in compose["networks"]["front"]
    env = hub["environment"]
    assert int(env["GPTNOTES_CONTAINER_PIDS"]) <= 1024
    assert "GPTNOTES_HUB_PASSWORD" not in env
    roster = [v for v in hub["volumes"] if v.endswith(":ro") and env["GPTNOTES_HUB_ROSTER"] in v]
    assert roster, hub["volumes"]


def test_the_students_image_holds_no_solutions():
    text = (ROOT / "Dockerfile").read_text()
    assert "rm /course/*-solutions.ipynb" in text
    assert "COPY --from=build /course/ /opt/gptnotes/notebooks/" in text
    assert "COPY notebooks/" not in text
