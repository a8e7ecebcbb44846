#!/usr/bin/env bash
# The Debian packages the test suite drives for real (a browser, Redis, a load balancer): installed with apt-get
# when one is missing, so that `npm test` passes on a fresh machine. A check of a few paths when all are present.
# Add a package here as "binary-path:debian-package".
set -uo pipefail
needs=(
  "/usr/bin/chromium:chromium"
  "/usr/bin/redis-server:redis-server"
  "/usr/sbin/haproxy:haproxy"
)
missing=()
for pair in "${needs[@]}"; do
  [ -x "${pair%%:*}" ] || missing+=("${pair#*:}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "system-deps: installing ${missing[*]} from Debian's packages (the tests drive them for real)" >&2
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "system-deps: not root and no sudo: install ${missing[*]} (apt-get install ${missing[*]}) and run the tests again" >&2
    exit 1
  fi
else SUDO=; fi
{ $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >&2 || {
  echo "system-deps: apt-get could not install ${missing[*]}" >&2
  exit 1
}
