#!/bin/bash
# `make test-docker`: the single-user image and `docker compose up`, run for real, as root on a
# Debian 12 machine with no registry: the engine (dockerd started here when none answers, and
# stopped again), the base images (tests/docker/base_images.sh), the image built (its size and
# build time printed), the default service started under a project name of its own, checked from
# the host through 127.0.0.1 (tests/docker/check_server.py), then taken down with its volumes and
# network, and checked gone. The class profile is only parsed (docker.md says why).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=/usr/bin/python3
PROJECT=${GPTNOTES_DOCKER_PROJECT:-gptnotes-dockertest}
URL=http://127.0.0.1:8888
export DOCKER=${DOCKER:-docker}
# As a new user runs it: none of the class profile's variables set.
unset GPTNOTES_HUB_ADMINS
work=$(mktemp -d)
dockerd_pid=""
notebooks_owner=""
made_weights=""
made_checkpoints=""
made_trash=""

say() { echo "test-docker: $*"; }

# Without an engine nothing here can run: say so and exit 77 (skipped), before touching anything.
if ! command -v "$DOCKER" >/dev/null || ! command -v "${DOCKERD:-dockerd}" >/dev/null; then
	say "skipped: no Docker engine here ($DOCKER, ${DOCKERD:-dockerd}); install docker.io (make test-docker does)" >&2
	exit 77
fi
if [ "$(id -u)" != 0 ]; then
	say "run as root: it starts dockerd and builds images" >&2
	exit 1
fi

# Compose: the v2 plugin when the client has it, else Debian's docker-compose (v1).
if "$DOCKER" compose version >/dev/null 2>&1; then
	compose() { "$DOCKER" compose -p "$PROJECT" "$@"; }
else
	compose() { docker-compose -p "$PROJECT" "$@"; }
fi

finish() {
	rc=$?
	set +e
	if "$DOCKER" info >/dev/null 2>&1; then
		[ $rc = 0 ] || compose logs --no-color --tail=40 gptnotes
		compose down --volumes --remove-orphans >/dev/null 2>&1
	fi
	[ -z "$notebooks_owner" ] || chown -R "$notebooks_owner" notebooks
	[ -z "$made_weights" ] || rmdir weights 2>/dev/null
	[ -z "$made_checkpoints" ] || rm -rf notebooks/.ipynb_checkpoints
	[ -z "$made_trash" ] || rm -rf notebooks/.Trash-1000
	if [ -n "$dockerd_pid" ]; then
		say "stopping the dockerd started here (pid $dockerd_pid)"
		kill "$dockerd_pid" && while kill -0 "$dockerd_pid" 2>/dev/null; do sleep 1; done
	fi
	rm -rf "$work"
	[ $rc = 0 ] && say "ok" || say "FAILED ($rc)"
	exit $rc
}
trap finish EXIT

# The engine: the one that answers, else dockerd started here without systemd.
if ! "$DOCKER" info >/dev/null 2>&1; then
	say "no engine answers: starting dockerd (log: $work/dockerd.log)"
	setsid "${DOCKERD:-dockerd}" >"$work/dockerd.log" 2>&1 &
	dockerd_pid=$!
	for _ in $(seq 60); do "$DOCKER" info >/dev/null 2>&1 && break; sleep 1; done
	"$DOCKER" info >/dev/null 2>&1 || { tail -20 "$work/dockerd.log"; exit 1; }
fi
say "engine $("$DOCKER" version -f '{{.Server.Version}}'), storage $("$DOCKER" info -f '{{.Driver}}')"

tests/docker/base_images.sh Dockerfile

# The image. The build time is wall-clock on this machine; base images and cache as they are.
start=$(date +%s)
compose build gptnotes
built=$(($(date +%s) - start))
image=$(compose config | sed -n 's/^ *image: *//p' | head -1)
size=$("$DOCKER" image inspect -f '{{.Size}}' "$image")
say "image $image: $((size / 1000000)) MB, built in ${built} s (load $(cut -d' ' -f1-3 /proc/loadavg))"

# ./notebooks is the student's ~/gptnotes, written by the image's uid 1000: lend it for the run.
if [ "$(stat -c %u notebooks)" != 1000 ]; then
	notebooks_owner=$(stat -c %u:%g notebooks)
	chown -R 1000:100 notebooks
fi
[ -e weights ] || made_weights=1  # the engine makes the mount's source, empty
[ -e notebooks/.ipynb_checkpoints ] || made_checkpoints=1  # the server's, when a notebook is saved
[ -e notebooks/.Trash-1000 ] || made_trash=1  # where the server's delete puts it (send2trash)

# The default service alone: no class variable set, as a new user runs it.
compose up -d 2>&1 | sed 's/^/compose: /'
running=$(compose ps --services --filter status=running 2>/dev/null || compose ps --services)
say "running: $(echo $running)"
[ "$(echo $running)" = gptnotes ] || { say "want only the service gptnotes" >&2; exit 1; }

# The token from the server's log.
token=""
for _ in $(seq 90); do
	token=$(compose logs --no-color gptnotes 2>/dev/null | grep -o 'token=[0-9a-f]*' | head -1 | cut -d= -f2)
	[ -n "$token" ] && break
	sleep 2
done
[ -n "$token" ] || { say "no token in the server's log" >&2; exit 1; }
"$PY" tests/docker/check_server.py "$URL" "$token" notebooks

# The class profile: parsed (its password may be unset), not built: see docs/docker.md.
compose --profile class config --services | sort | tr '\n' ' ' | sed 's/^/test-docker: the class profile parses: /;s/$/\n/'

# Down, and nothing of the project left.
compose down --volumes --remove-orphans 2>&1 | sed 's/^/compose: /'
label="label=com.docker.compose.project=$PROJECT"
left="$("$DOCKER" ps -aq --filter "$label") $("$DOCKER" volume ls -q --filter "$label") $("$DOCKER" network ls -q --filter "$label")"
[ -z "${left// /}" ] || { say "left behind: $left" >&2; exit 1; }
say "down: no container, volume or network of project $PROJECT left"
