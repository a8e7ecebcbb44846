#!/usr/bin/env bash
# Starts a Docker daemon on a machine that has none (a sandbox or VM where podman's crun is refused setrlimit),
# so that test/scale/image.test.ts builds and runs the image of deploy/Containerfile. Needs root. Installs
# Debian's docker.io and debootstrap, starts dockerd with the vfs storage driver (no overlay needed) under DIR,
# and, when no registry is reachable, makes the base image debian:bookworm-slim with debootstrap from
# deb.debian.org. Then: DOCKER_HOST=unix://DIR/docker.sock bun test test/scale/image.test.ts
# Stop the daemon with: kill "$(cat DIR/pid)"
set -euo pipefail
dir=${1:-/tmp/mcpbin-dockerd}
mkdir -p "$dir"
if ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io debootstrap >&2
fi
export DOCKER_HOST="unix://$dir/docker.sock"
if ! /usr/bin/docker info >/dev/null 2>&1; then
  nohup dockerd --storage-driver=vfs --data-root "$dir/root" --exec-root "$dir/exec" --pidfile "$dir/pid" \
    -H "$DOCKER_HOST" >"$dir/dockerd.log" 2>&1 &
  for _ in $(seq 1 60); do /usr/bin/docker info >/dev/null 2>&1 && break; sleep 0.5; done
fi
base=docker.io/library/debian:bookworm-slim
if ! /usr/bin/docker image inspect "$base" >/dev/null 2>&1 && ! /usr/bin/docker pull "$base" >/dev/null 2>&1; then
  echo "docker-here: no registry: making $base with debootstrap (a few minutes)" >&2
  debootstrap --variant=minbase bookworm "$dir/bookworm" http://deb.debian.org/debian >"$dir/debootstrap.log" 2>&1
  tar -C "$dir/bookworm" -c . | /usr/bin/docker import - "$base" >/dev/null
fi
echo "DOCKER_HOST=$DOCKER_HOST"
