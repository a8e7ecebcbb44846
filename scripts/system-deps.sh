#!/usr/bin/env bash
# The Debian packages the test suite drives for real (a browser, Redis, a load balancer): installed with apt-get
# when one is missing, so that `npm test` passes on a fresh machine. A check of a few paths when all are present.
# Add a package here as "binary-path:debian-package". A package dpkg still lists whose binary is gone (removed by
# hand) is reinstalled: a plain `apt-get install` does nothing for it. MCPBIN_SYSTEM_DEPS (pairs separated by spaces)
# replaces the list, for the script's own test.
set -uo pipefail
needs=(
  "/usr/bin/chromium:chromium"
  "/usr/bin/redis-server:redis-server"
  "/usr/sbin/haproxy:haproxy"
)
[ -n "${MCPBIN_SYSTEM_DEPS:-}" ] && read -r -a needs <<<"$MCPBIN_SYSTEM_DEPS"
missing=()
reinstall=()
for pair in "${needs[@]}"; do
  bin=${pair%%:*} pkg=${pair#*:}
  [ -x "$bin" ] && continue
  if [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" = "install ok installed" ]; then
    echo "system-deps: dpkg lists $pkg as installed but $bin is gone: reinstalling $pkg" >&2
    reinstall+=("$pkg")
  else
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && [ ${#reinstall[@]} -eq 0 ] && exit 0
[ ${#missing[@]} -gt 0 ] && echo "system-deps: installing ${missing[*]} from Debian's packages (the tests drive them for real)" >&2
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "system-deps: not root and no sudo: install ${missing[*]} ${reinstall[*]} (apt-get install --reinstall ${missing[*]} ${reinstall[*]}) and run the tests again" >&2
    exit 1
  fi
else SUDO=; fi
install() { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@"; }
{
  $SUDO apt-get update -qq &&
    { [ ${#missing[@]} -eq 0 ] || install "${missing[@]}"; } &&
    { [ ${#reinstall[@]} -eq 0 ] || install --reinstall "${reinstall[@]}"; }
} >&2 || {
  echo "system-deps: apt-get could not install ${missing[*]} ${reinstall[*]}" >&2
  exit 1
}
