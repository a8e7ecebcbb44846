#!/usr/bin/env bash
# Starts a Docker daemon on a machine that has none (a sandbox or VM where podman's crun is refused setrlimit),
# so that test/scale/image.test.ts builds and runs the image of deploy/Containerfile. Needs root (or sudo for
# apt-get). Installs Debian's docker.io and debootstrap when missing, starts dockerd with the vfs storage driver
# (no overlay needed) under DIR, detached in its own session, and, when no registry is reachable, makes the base
# image debian:bookworm-slim with debootstrap from deb.debian.org. A daemon that already answers (the caller's
# DOCKER_HOST, the default socket, or DIR's) is reused, and a base image already in its store is kept, so a second
# run takes seconds. Prints DOCKER_HOST=... on stdout (everything else goes to stderr); exits non-zero when no
# daemon answers or the base image cannot be had.
# Then: DOCKER_HOST=unix://DIR/docker.sock bun test test/scale/image.test.ts
# Stop the daemon with: kill "$(cat DIR/pid)"
set -euo pipefail
dir=${1:-/tmp/mcpbin-dockerd}
mkdir -p "$dir"
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO=sudo; else SUDO=; fi
if ! [ -x /usr/bin/docker ] || ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null; then
  echo "docker-here: installing docker.io and debootstrap from Debian's packages" >&2
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    docker.io debootstrap; } >&2
fi
docker=/usr/bin/docker
if ! $docker info >/dev/null 2>&1; then
  export DOCKER_HOST="unix://$dir/docker.sock"
  if ! $docker info >/dev/null 2>&1; then
    echo "docker-here: starting dockerd (vfs) on $DOCKER_HOST, its log in $dir/dockerd.log" >&2
    # Its own session, stdin and outputs off the caller's: the daemon outlives this script and holds no pipe open.
    setsid nohup $SUDO dockerd --storage-driver=vfs --data-root "$dir/root" --exec-root "$dir/exec" \
      --pidfile "$dir/pid" -H "$DOCKER_HOST" </dev/null >"$dir/dockerd.log" 2>&1 &
    for _ in $(seq 1 60); do $docker info >/dev/null 2>&1 && break; sleep 0.5; done
    if ! $docker info >/dev/null 2>&1; then
      echo "docker-here: dockerd did not answer within 30 s; the end of its log:" >&2
      tail -n 5 "$dir/dockerd.log" >&2
      exit 1
    fi
  fi
fi
base=docker.io/library/debian:bookworm-slim
if ! $docker image inspect "$base" >/dev/null 2>&1 && ! $docker pull "$base" >/dev/null 2>&1; then
  echo "docker-here: no registry: making $base with debootstrap (a few minutes)" >&2
  rm -rf "$dir/bookworm"
  if ! $SUDO debootstrap --variant=minbase bookworm "$dir/bookworm" http://deb.debian.org/debian \
    >"$dir/debootstrap.log" 2>&1; then
    echo "docker-here: debootstrap failed; the end of $dir/debootstrap.log:" >&2
    tail -n 5 "$dir/debootstrap.log" >&2
    exit 1
  fi
  $SUDO tar -C "$dir/bookworm" -c . | $docker import - "$base" >/dev/null
  rm -rf "$dir/bookworm"
fi
echo "DOCKER_HOST=${DOCKER_HOST:-unix:///var/run/docker.sock}"
