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
#   GPTNOTES_HUB_ADMINS    comma-separated admin users (local, docker)
#   GPTNOTES_HUB_ADMIN_TOKEN  an API token with the rights to create users, start their servers
#                          and make tokens for them (tests, the class benchmark, a teacher's scripts)
#
# Course material: each server starts with deploy/start-singleuser, which copies every notebook of
# GPTNOTES_COURSE that the student's ~/gptnotes lacks and never overwrites one they have.
import os
import pathlib
import subprocess

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
                  "--MappingKernelManager.cull_interval=120"]
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

if MODE in ("test", "local"):
    # The kernel and its kernelspec come from this checkout; every server finds the spec on
    # JUPYTER_PATH and every kernel the shipped model through GPTNOTES_MODEL.
    gptnotes = os.environ.get("GPTNOTES_BIN", str(ROOT / "bin" / "gptnotes"))
    share = STATE / "share"
    subprocess.run([gptnotes, "install", "--prefix", str(share), "--name", "gptnotes"],
                   check=True, stdout=subprocess.DEVNULL)
    c.Spawner.cmd = [str(DEPLOY / "start-singleuser")]
    c.Spawner.environment.update({
        "JUPYTER_PATH": str(share / "share" / "jupyter"),
        "GPTNOTES_MODEL": str(ROOT / "testdata" / "gopher.safetensors"),
        "GPTNOTES_COURSE": os.environ.get("GPTNOTES_COURSE", str(ROOT / "notebooks")),
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
    c.Spawner.environment["GPTNOTES_COURSE"] = os.environ.get("GPTNOTES_COURSE", str(ROOT / "notebooks"))

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
    # A shared password is enough to try the class out; a real one swaps in an OAuth login
    # (oauthenticator) here.
    c.JupyterHub.authenticator_class = "jupyterhub.auth.DummyAuthenticator"
    password = os.environ.get("GPTNOTES_HUB_PASSWORD", "")
    if len(password) < 12:
        raise SystemExit("GPTNOTES_HUB=docker logs students in with one shared password: "
                         "set GPTNOTES_HUB_PASSWORD (12 characters or more)")
    c.DummyAuthenticator.password = password
    c.Authenticator.admin_users = {u for u in os.environ.get("GPTNOTES_HUB_ADMINS", "").split(",") if u}
