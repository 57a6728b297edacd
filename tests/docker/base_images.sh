#!/bin/bash
# The base images the Dockerfiles' FROM lines name, made here without a registry when the
# engine lacks them (a registry image of the same tag, when one can be pulled, serves as well):
#
#   debian:bookworm-slim    debootstrap's minbase bookworm from the Debian archive, docs and
#                           man pages cut as the registry's slim image cuts them, `docker import`ed
#   golang:<go>-bookworm    that base, the host's Go toolchain (go env GOROOT, which must be the
#                           FROM line's release), gcc and make, and the host's extra CA certificates
#                           (/usr/local/share/ca-certificates), so `go build` in the image reaches
#                           the module proxy the host reaches, through the same TLS middlebox
#
# Usage: tests/docker/base_images.sh [DOCKERFILE...]   (default: Dockerfile deploy/hub.Dockerfile)
set -euo pipefail
cd "$(dirname "$0")/../.."
DOCKER=${DOCKER:-docker}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ $# -gt 0 ] || set -- Dockerfile deploy/hub.Dockerfile
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

have() { "$DOCKER" image inspect "$1" >/dev/null 2>&1; }

# debian IMAGE: a bookworm root file system from the Debian archive, imported as IMAGE.
debian() {
	local root="$work/rootfs"
	echo "base_images: $1: debootstrap bookworm from $MIRROR"
	debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 ||
		{ tail -20 "$work/debootstrap.log"; echo "base_images: $1: debootstrap failed" >&2; return 1; }
	# What the registry's slim images do: no documentation or man pages from later installs,
	# none left from this one, and no package lists in the image.
	cat >"$root/etc/dpkg/dpkg.cfg.d/docker-slim" <<-'CFG'
	path-exclude /usr/share/doc/*
	path-include /usr/share/doc/*/copyright
	path-exclude /usr/share/man/*
	path-exclude /usr/share/info/*
	path-exclude /usr/share/locale/*
	path-include /usr/share/locale/locale.alias
	CFG
	find "$root/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete
	rm -rf "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/lib/apt/lists/* \
		"$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/var/log/*.log
	cat >"$root/etc/apt/sources.list" <<-LIST
	deb $MIRROR bookworm main
	deb $MIRROR bookworm-updates main
	deb ${MIRROR%/debian}/debian-security bookworm-security main
	LIST
	tar -C "$root" --numeric-owner -c . | "$DOCKER" import --change 'CMD ["bash"]' - "$1" >/dev/null
	rm -rf "$root"
}

# golang IMAGE: the Debian base with the host's Go toolchain, which must be IMAGE's release.
golang() {
	local want=${1#golang:} goroot have_go
	want=${want%%-*}
	goroot=$(go env GOROOT)
	have_go=$(go env GOVERSION)
	case "$have_go" in
	go"$want" | go"$want".*) ;;
	*) echo "base_images: $1 needs Go $want; the host's is $have_go ($goroot)" >&2; return 1 ;;
	esac
	have debian:bookworm-slim || debian debian:bookworm-slim
	echo "base_images: $1: $have_go from $goroot on debian:bookworm-slim"
	mkdir -p "$work/golang/certs"
	cp -a "$goroot" "$work/golang/go"
	cp /usr/local/share/ca-certificates/*.crt "$work/golang/certs/" 2>/dev/null || true
	cat >"$work/golang/Dockerfile" <<-'DF'
	FROM debian:bookworm-slim
	RUN apt-get update -qq \
	 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	      ca-certificates gcc libc6-dev make pkg-config git \
	 && rm -rf /var/lib/apt/lists/*
	COPY certs/ /usr/local/share/ca-certificates/
	RUN update-ca-certificates >/dev/null
	COPY go/ /usr/local/go/
	ENV GOTOOLCHAIN=local GOPATH=/go PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	WORKDIR /go
	DF
	"$DOCKER" build -q -t "$1" "$work/golang" >/dev/null
	rm -rf "$work/golang"
}

for image in $(sed -n 's/^FROM[[:space:]]\{1,\}\([^[:space:]]*\).*/\1/p' "$@" | sort -u); do
	if have "$image"; then
		echo "base_images: $image: present"
		continue
	fi
	case "$image" in
	debian:bookworm*) debian "$image" ;;
	golang:*-bookworm) golang "$image" ;;
	*) echo "base_images: $image: no recipe here; pull it or build it" >&2; exit 1 ;;
	esac
done
