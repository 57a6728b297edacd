# JupyterHub configuration for a gptnotes class: one file for the tests, a one-machine class
# and a Docker class. (Kubernetes runs the hub that Zero to JupyterHub's chart configures:
# deploy/z2jh/values.yaml.) Written for JupyterHub 3.0, Debian 12's.
#
#     jupyterhub -f deploy/jupyterhub_config.py
#
# What differs between deployments is chosen by the environment:
#
#   GPTNOTES_HUB           test | local (the default) | docker
#       test    DummyAuthenticator and SimpleLocalProcessSpawner: every student is the hub's own
#               Unix user with a home in GPTNOTES_HUB_HOMES; loopback only. For tests, never a class.
#       local   PAM: students log in with their Unix account (members of GPTNOTES_HUB_GROUP), and
#               LocalProcessSpawner runs each one's server as that user. Run the hub as root.
#       docker  DockerSpawner: each student's server in a container of GPTNOTES_IMAGE, their work
#               in a volume of their own (docker-compose.yml, profile "class").
#   GPTNOTES_HUB_URL       where the hub listens (default http://127.0.0.1:8000; put TLS in front)
#   GPTNOTES_HUB_STATE     the hub's database, cookie secret and kernelspec (default /srv/gptnotes)
#   GPTNOTES_KERNEL_MEMORY each kernel's own memory limit (default 1536MiB: docs/class.md)
#   GPTNOTES_KERNEL_THREADS each kernel's GOMAXPROCS, the cores its matrix code uses (default 1)
#   GPTNOTES_COURSE        the notebooks copied into each student's home (default: this repository's)
#   GPTNOTES_HUB_ADMINS    comma-separated admin users, the teachers (local, docker)
#   GPTNOTES_HUB_ROSTER    docker: the students' and teachers' logins, one "name:pbkdf2-hash" a line
#                          (`python3 deploy/jupyterhub_config.py hash NAME` prints one)
#   GPTNOTES_HUB_TEACHERS  local: the Unix group that may read the solutions (default teachers)
#   GPTNOTES_HUB_ADMIN_TOKEN  an API token with the rights to create users, start their servers
#                          and make tokens for them (tests, the class benchmark, a teacher's scripts)
#
# Course material: each server starts with deploy/start-singleuser, which copies every exercise
# notebook of GPTNOTES_COURSE that the student's ~/gptnotes lacks and never overwrites one they
# have. The solutions (*-solutions.ipynb) go to teachers (admins) only, and to students once a
# teacher puts one in the course's released/ directory (docs/security.md).
#
# Kernels: every notebook server asks its kernels for ipc sockets in its private runtime
# directory, not tcp on loopback, where any local user could connect (docs/security.md).
import hashlib
import hmac
import os
import pathlib
import shutil
import subprocess
import sys

if __name__ == "__main__":  # `python3 deploy/jupyterhub_config.py hash NAME`: a roster line
    import getpass
    import secrets
    if sys.argv[1:2] != ["hash"] or len(sys.argv) != 3:
        raise SystemExit("usage: jupyterhub_config.py hash NAME  (prints NAME:pbkdf2_sha256$...)")
    salt = secrets.token_hex(16)
    password = getpass.getpass(f"password for {sys.argv[2]}: ").encode()
    digest = hashlib.pbkdf2_hmac("sha256", password, salt.encode(), 600_000).hex()
    print(f"{sys.argv[2]}:pbkdf2_sha256$600000${salt}${digest}")
    raise SystemExit(0)


def check_password(line_hash, password):
    """Whether password matches a roster hash "pbkdf2_sha256$ROUNDS$SALT$HEX" (constant time)."""
    try:
        scheme, rounds, salt, digest = line_hash.split("$")
        rounds = int(rounds)
    except ValueError:
        return False
    if scheme != "pbkdf2_sha256" or rounds < 100_000:
        return False
    got = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), rounds).hex()
    return hmac.compare_digest(got, digest)


def read_roster(path):
    """The roster file's {name: hash}; blank lines and # comments skipped."""
    roster = {}
    for n, line in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, h = line.partition(":")
        if not sep or not name or not h.startswith("pbkdf2_sha256$"):
            raise SystemExit(f"{path}:{n}: want NAME:pbkdf2_sha256$ROUNDS$SALT$HEX")
        roster[name] = h
    return roster


def roster_authenticator():
    """An Authenticator that checks a login against GPTNOTES_HUB_ROSTER, read at each login so a
    teacher adds a student without restarting the hub."""
    from jupyterhub.auth import Authenticator

    class RosterAuthenticator(Authenticator):
        roster_path = os.environ.get("GPTNOTES_HUB_ROSTER", "/srv/jupyterhub/roster")

        async def authenticate(self, handler, data):
            name = self.normalize_username((data or {}).get("username", ""))
            h = read_roster(self.roster_path).get(name)
            if h is None:
                check_password("pbkdf2_sha256$600000$x$", data.get("password", ""))  # same time
                return None
            return name if check_password(h, (data or {}).get("password", "")) else None

        def check_allowed(self, username, authentication=None):
            return username in read_roster(self.roster_path)

    return RosterAuthenticator


c = get_config()  # noqa: F821  (JupyterHub provides it)

MODE = os.environ.get("GPTNOTES_HUB", "local")
if MODE not in ("test", "local", "docker"):
    raise SystemExit(f"GPTNOTES_HUB={MODE!r}: want test, local or docker "
                     "(Kubernetes: deploy/z2jh/values.yaml)")

DEPLOY = pathlib.Path(__file__).resolve().parent
ROOT = DEPLOY.parent
STATE = pathlib.Path(os.environ.get("GPTNOTES_HUB_STATE", "/srv/gptnotes"))
STATE.mkdir(parents=True, exist_ok=True)
KERNEL_MEMORY = os.environ.get("GPTNOTES_KERNEL_MEMORY", "1536MiB")

c.JupyterHub.bind_url = os.environ.get("GPTNOTES_HUB_URL", "http://127.0.0.1:8000")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every student's server
# Debian's proxy (node-configurable-http-proxy) keeps its modules in /usr/share/nodejs, where
# Debian's node looks and a node from elsewhere (NodeSource's, on this project's machines) does
# not; the proxy inherits the hub's environment.
if os.path.isdir("/usr/share/nodejs"):
    os.environ["NODE_PATH"] = os.pathsep.join(
        p for p in [os.environ.get("NODE_PATH", ""), "/usr/share/nodejs"] if p)

# Idle servers stop themselves after an hour without activity (the classic notebook culls its
# idle kernels after 20 minutes): the hub's own culler is a separate package Debian lacks.
c.Spawner.args = ["--NotebookApp.shutdown_no_activity_timeout=3600",
                  "--MappingKernelManager.cull_idle_timeout=1200",
                  "--MappingKernelManager.cull_interval=120",
                  "--KernelManager.transport=ipc"]
c.Spawner.default_url = "/tree/gptnotes"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 60
c.Spawner.environment = {
    "GPTNOTES_MEMORY_LIMIT": KERNEL_MEMORY,  # kernel/memlimit.go: a runaway cell is stopped past it
    # Each kernel computes on one core. gptnotes' matrix code splits its work over GOMAXPROCS
    # threads that spin between parallel regions: right for one user on a machine, wasteful
    # when many kernels share its cores (the class benchmark; docs/class.md).
    "GOMAXPROCS": os.environ.get("GPTNOTES_KERNEL_THREADS", "1"),
}

if os.environ.get("GPTNOTES_HUB_ADMIN_TOKEN"):
    c.JupyterHub.services = [{"name": "gptnotes-admin", "api_token": os.environ["GPTNOTES_HUB_ADMIN_TOKEN"]}]
    c.JupyterHub.load_roles = [{
        "name": "gptnotes-admin",
        "scopes": ["admin:users", "admin:servers", "tokens", "access:servers", "read:metrics"],
        "services": ["gptnotes-admin"],
    }]


def prepare_course(source, teachers_group=None):
    """Split the course into STATE/course (the exercises, and released/ for solutions a teacher
    releases: readable by all) and STATE/solutions (readable by the teachers' group, or by root
    only); return both paths. Students' servers see only the first."""
    course, solutions = STATE / "course", STATE / "solutions"
    (course / "released").mkdir(parents=True, exist_ok=True)
    solutions.mkdir(exist_ok=True)
    os.chmod(solutions, 0o700)
    for f in sorted(pathlib.Path(source).glob("*.ipynb")):
        shutil.copyfile(f, (solutions if f.name.endswith("-solutions.ipynb") else course) / f.name)
    if teachers_group:
        try:
            shutil.chown(solutions, group=teachers_group)
            os.chmod(solutions, 0o750)
        except (LookupError, PermissionError) as e:
            print(f"gptnotes hub: solutions readable by root only ({e})", file=sys.stderr)
    for f in solutions.iterdir():
        os.chmod(f, 0o640)
    return course, solutions


def solutions_for_teachers(solutions):
    """The environment value start-singleuser reads: the solutions for admins, nothing else."""
    return lambda spawner: str(solutions) if spawner.user.admin else ""


if MODE in ("test", "local"):
    # The kernel and its kernelspec come from this checkout; every server finds the spec on
    # JUPYTER_PATH and every kernel the shipped model through GPTNOTES_MODEL.
    gptnotes = os.environ.get("GPTNOTES_BIN", str(ROOT / "bin" / "gptnotes"))
    share = STATE / "share"
    subprocess.run([gptnotes, "install", "--prefix", str(share), "--name", "gptnotes"],
                   check=True, stdout=subprocess.DEVNULL)
    c.Spawner.cmd = [str(DEPLOY / "start-singleuser")]
    course, solutions = prepare_course(os.environ.get("GPTNOTES_COURSE", str(ROOT / "notebooks")),
                                       os.environ.get("GPTNOTES_HUB_TEACHERS", "teachers") if MODE == "local" else None)
    c.Spawner.environment.update({
        "JUPYTER_PATH": str(share / "share" / "jupyter"),
        "GPTNOTES_MODEL": str(ROOT / "testdata" / "gopher.safetensors"),
        "GPTNOTES_COURSE": str(course),
        "GPTNOTES_SOLUTIONS": solutions_for_teachers(solutions),
    })

if MODE == "test":
    # Everything on loopback, on the ports the test chose; each student's home a temp directory.
    # Every student is the hub's own Unix user: separate processes, servers and kernel keys,
    # no isolation between them.
    c.JupyterHub.authenticator_class = "jupyterhub.auth.DummyAuthenticator"
    c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
    c.SimpleLocalProcessSpawner.home_dir_template = os.environ["GPTNOTES_HUB_HOMES"] + "/{username}"
    c.JupyterHub.hub_bind_url = os.environ["GPTNOTES_HUB_API_URL"]
    c.ConfigurableHTTPProxy.api_url = os.environ["GPTNOTES_HUB_PROXY_API_URL"]
    c.Spawner.ip = "127.0.0.1"
    if os.geteuid() == 0:
        c.Spawner.args.append("--allow-root")
    # Whatever the test's processes are, a marker in their environment lets the test find them all.
    if os.environ.get("GPTNOTES_HUB_RUN"):
        c.Spawner.environment["GPTNOTES_HUB_RUN"] = os.environ["GPTNOTES_HUB_RUN"]
    c.Authenticator.admin_users = set()

elif MODE == "local":
    c.JupyterHub.authenticator_class = "jupyterhub.auth.PAMAuthenticator"
    c.PAMAuthenticator.allowed_groups = {os.environ.get("GPTNOTES_HUB_GROUP", "students")}
    c.Authenticator.admin_users = {u for u in os.environ.get("GPTNOTES_HUB_ADMINS", "").split(",") if u}
    c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"
    c.LocalProcessSpawner.notebook_dir = "~"
    # The checkout's own notebooks/ holds the solutions too: a student who can read it reads them.
    for f in (ROOT / "notebooks").glob("*-solutions.ipynb"):
        if f.stat().st_mode & 0o004:
            print(f"gptnotes hub: {f} is readable by every user: chmod o-r the checkout's "
                  "solutions (docs/security.md)", file=sys.stderr)
            break

elif MODE == "docker":
    # The hub runs in a container of its own (deploy/hub.Dockerfile) beside the students'.
    c.JupyterHub.spawner_class = "dockerspawner.DockerSpawner"
    c.DockerSpawner.image = os.environ.get("GPTNOTES_IMAGE", "gptnotes-singleuser")
    c.DockerSpawner.network_name = os.environ.get("GPTNOTES_DOCKER_NETWORK", "gptnotes-class")
    c.DockerSpawner.remove = True  # the container goes; the volume with the student's work stays
    c.DockerSpawner.notebook_dir = "/home/student"
    c.DockerSpawner.volumes = {"gptnotes-{username}": "/home/student"}
    c.DockerSpawner.cmd = ["gptnotes-start-singleuser"]
    # The container's hard limits sit above the kernel's own (one kernel and its server; see
    # docs/class.md's figures), so a runaway cell meets the kernel's limit first.
    c.DockerSpawner.mem_limit = os.environ.get("GPTNOTES_CONTAINER_MEMORY", "2G")
    c.DockerSpawner.cpu_limit = float(os.environ.get("GPTNOTES_CONTAINER_CPUS", "1"))
    c.JupyterHub.hub_ip = "0.0.0.0"  # inside the hub's container; compose publishes only the proxy
    c.JupyterHub.hub_connect_ip = os.environ.get("GPTNOTES_HUB_HOST", "hub")
    # Each student and teacher logs in with their own password, checked against a roster of
    # PBKDF2 hashes (no extra service); the admins are the teachers named in GPTNOTES_HUB_ADMINS,
    # and each must be on the roster.
    c.JupyterHub.authenticator_class = roster_authenticator()
    roster = read_roster(os.environ.get("GPTNOTES_HUB_ROSTER", "/srv/jupyterhub/roster"))
    admins = {u for u in os.environ.get("GPTNOTES_HUB_ADMINS", "").split(",") if u}
    if admins - roster.keys():
        raise SystemExit(f"GPTNOTES_HUB_ADMINS names {sorted(admins - roster.keys())}, not on the roster")
    c.Authenticator.admin_users = admins
    # Limits a student's code cannot lift: processes (a fork bomb stops at 256), and the class
    # network is internal (docker-compose.yml): no egress unless the teacher opens it.
    c.DockerSpawner.extra_host_config = {"pids_limit": int(os.environ.get("GPTNOTES_CONTAINER_PIDS", "256")),
                                         "cap_drop": ["ALL"], "security_opt": ["no-new-privileges"]}
    # Solutions: the image holds the exercises only (Dockerfile); a teacher's container gets the
    # solutions read-only from the host directory GPTNOTES_SOLUTIONS_HOST_DIR.
    solutions_host = os.environ.get("GPTNOTES_SOLUTIONS_HOST_DIR", "")

    def mount_solutions(spawner):
        if spawner.user.admin and solutions_host:
            spawner.volumes = {**spawner.volumes, solutions_host: {"bind": "/opt/gptnotes/solutions", "mode": "ro"}}
            spawner.environment = {**spawner.environment, "GPTNOTES_SOLUTIONS": "/opt/gptnotes/solutions"}

    c.Spawner.pre_spawn_hook = mount_solutions
