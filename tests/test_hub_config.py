"""deploy/jupyterhub_config.py in its docker mode, which needs a Docker engine to run: loaded here
under Debian's JupyterHub 3.0 as the hub loads it, its roster login checked with a right and a
wrong password, its admins, its container limits and its solutions for teachers only."""
import asyncio
import pathlib
import subprocess
import sys
from types import SimpleNamespace

import pytest
from traitlets.config.loader import PyFileConfigLoader

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = ROOT / "deploy" / "jupyterhub_config.py"


def roster_line(name, password):
    """A roster line made by the configuration's own `hash` command."""
    out = subprocess.run([sys.executable, str(CONFIG), "hash", name], input=password + "\n",
                         capture_output=True, text=True, timeout=60, check=True)
    return out.stdout.strip()


@pytest.fixture(scope="module")
def roster(tmp_path_factory):
    path = tmp_path_factory.mktemp("roster") / "roster"
    path.write_text("# the class\n" + roster_line("ada", "ada's own secret") + "\n" +
                    roster_line("teacher", "the teacher's secret") + "\n")
    return path


def load(monkeypatch, tmp_path, roster, admins):
    for k, v in {"GPTNOTES_HUB": "docker", "GPTNOTES_HUB_STATE": str(tmp_path / "state"),
                 "GPTNOTES_HUB_ROSTER": str(roster), "GPTNOTES_HUB_ADMINS": admins,
                 "GPTNOTES_SOLUTIONS_HOST_DIR": "/srv/class/solutions"}.items():
        monkeypatch.setenv(k, v)
    return PyFileConfigLoader(str(CONFIG)).load_config()


def test_each_student_logs_in_with_their_own_password(monkeypatch, tmp_path, roster):
    c = load(monkeypatch, tmp_path, roster, "teacher")
    auth = c.JupyterHub.authenticator_class()
    login = lambda name, password: asyncio.run(auth.authenticate(None, {"username": name, "password": password}))
    assert login("ada", "ada's own secret") == "ada"
    assert login("ada", "the teacher's secret") is None  # another's password
    assert login("ada", "") is None
    assert login("teacher", "ada's own secret") is None  # a student cannot log in as the admin
    assert login("teacher", "the teacher's secret") == "teacher"
    assert login("mallory", "anything") is None  # not on the roster
    assert auth.check_allowed("ada") and not auth.check_allowed("mallory")
    assert c.Authenticator.admin_users == {"teacher"}
    assert c.JupyterHub.authenticator_class.__name__ == "RosterAuthenticator"


def test_an_admin_must_be_on_the_roster(monkeypatch, tmp_path, roster):
    with pytest.raises(SystemExit, match="not on the roster"):
        load(monkeypatch, tmp_path, roster, "teacher,mallory")


def test_containers_are_limited_and_solutions_reach_teachers_only(monkeypatch, tmp_path, roster):
    c = load(monkeypatch, tmp_path, roster, "teacher")
    host = c.DockerSpawner.extra_host_config
    assert host["pids_limit"] == 256 and host["cap_drop"] == ["ALL"], host
    for admin in (False, True):
        spawner = SimpleNamespace(user=SimpleNamespace(admin=admin), volumes={"gptnotes-{username}": "/home/student"},
                                  environment={})
        c.Spawner.pre_spawn_hook(spawner)
        mounted = "/srv/class/solutions" in spawner.volumes
        assert mounted == admin and bool(spawner.environment.get("GPTNOTES_SOLUTIONS")) == admin, spawner
