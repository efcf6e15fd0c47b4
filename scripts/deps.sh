#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Install the Debian/Ubuntu packages a Tern build needs, only those missing.
#
#   scripts/deps.sh node     build and run tern-node: cmake ninja-build gcc libc6-dev pkg-config
#   scripts/deps.sh test     node + clang libclang-rt-14-dev libcmocka-dev gcc-arm-none-eabi
#                            libnewlib-arm-none-eabi python3 python3-pytest python3-pip valgrind
#                            tshark iproute2 iputils-ping radvd (radvd: the node-as-host RA test),
#                            then pip installs requirements.txt (pinned Python packages: scapy)
#   scripts/deps.sh --list test   print the packages of a set and exit
#
# Quiet and without side effects when everything is there. As root it runs
# apt-get (non-interactively; `apt-get update` only when the package lists are
# missing or stale); otherwise it prints the command to run and exits 1.
# TERN_DEPS_EXTRA="pkg ..." adds packages to the check (used to test this script).
set -euo pipefail

usage() {
  echo "usage: $0 [--list] {node|test}..." >&2
  exit 2
}

list_only=0
sets=()
for arg in "$@"; do
  case "$arg" in
    --list) list_only=1 ;;
    node | test) sets+=("$arg") ;;
    -h | --help) usage ;;
    *) echo "$0: unknown set '$arg'" >&2; usage ;;
  esac
done
[ "${#sets[@]}" -gt 0 ] || usage

node_pkgs=(cmake ninja-build gcc libc6-dev pkg-config)
test_pkgs=("${node_pkgs[@]}" clang libclang-rt-14-dev libcmocka-dev gcc-arm-none-eabi libnewlib-arm-none-eabi
           python3 python3-pytest python3-pip valgrind tshark iproute2 iputils-ping radvd)

wanted=()
for s in "${sets[@]}"; do
  case "$s" in
    node) wanted+=("${node_pkgs[@]}") ;;
    test) wanted+=("${test_pkgs[@]}") ;;
  esac
done
# shellcheck disable=SC2206 # word splitting intended
wanted+=(${TERN_DEPS_EXTRA:-})
# De-duplicate, keeping the order.
declare -A seen=()
pkgs=()
for p in "${wanted[@]}"; do
  if [ -z "${seen[$p]:-}" ]; then
    seen[$p]=1
    pkgs+=("$p")
  fi
done

if [ "$list_only" -eq 1 ]; then
  echo "${pkgs[*]}"
  exit 0
fi

# Installed as a Debian package?
dpkg_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = "installed" ]
}

# Present in another way (a tool from another source counts, e.g. a pip pytest)?
provided_otherwise() {
  case "$1" in
    cmake) command -v cmake ;;
    ninja-build) command -v ninja ;;
    gcc) command -v gcc ;;
    pkg-config) command -v pkg-config || command -v pkgconf ;;
    clang) command -v clang ;;
    libclang-rt-14-dev) # any clang whose libFuzzer runtime links will do
      printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' |
        clang -fsanitize=fuzzer -x c - -o /dev/null ;;
    gcc-arm-none-eabi) command -v arm-none-eabi-gcc ;;
    python3) command -v python3 ;;
    python3-pytest) python3 -c 'import pytest' ;;
    python3-pip) python3 -m pip --version ;;
    valgrind) command -v valgrind ;;
    iproute2) command -v ip ;;
    iputils-ping) command -v ping ;;
    tshark) command -v tshark ;;
    libcmocka-dev) pkg-config --exists cmocka ;;
    libnewlib-arm-none-eabi)
      command -v arm-none-eabi-gcc &&
        printf '#include <string.h>\n#include <errno.h>\n' |
        arm-none-eabi-gcc -ffreestanding -fsyntax-only -x c - ;;
    *) false ;;
  esac >/dev/null 2>&1
}

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg_installed "$p" && ! provided_otherwise "$p"; then
    missing+=("$p")
  fi
done

check_cmake_version() {
  # The project needs CMake >= 3.20 (Debian 12, Ubuntu 22.04 and later have it).
  local v
  v="$(cmake --version 2>/dev/null | sed -n '1s/^cmake version \([0-9]*\.[0-9]*\).*/\1/p')"
  if [ -n "$v" ]; then
    local major="${v%%.*}" minor="${v#*.}"
    if [ "$major" -lt 3 ] || { [ "$major" -eq 3 ] && [ "$minor" -lt 20 ]; }; then
      echo "deps.sh: CMake $v is too old; Tern needs CMake >= 3.20 (Debian 12 / Ubuntu 22.04 or later)." >&2
      exit 1
    fi
  fi
}

# The test set's Python packages: requirements.txt (pinned), for the python3 that runs pytest.
# Nothing happens when every pin is installed. Debian's python3 refuses a plain pip install
# into the system (PEP 668, "externally managed"): then --break-system-packages.
pip_requirements() {
  local req
  req="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/requirements.txt"
  { [[ " ${sets[*]} " == *" test "* ]] && [ -f "$req" ]; } || return 0
  python3 - "$req" <<'EOF' && return 0
import sys
from importlib.metadata import PackageNotFoundError, version
for line in open(sys.argv[1]):
    name, _, want = line.split("#")[0].strip().partition("==")
    try:
        if name and want and version(name) != want:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
EOF
  if [ "$(id -u)" -ne 0 ]; then
    echo "deps.sh: Python packages of $req are missing. Install them with:" >&2
    echo "  python3 -m pip install -r $req" >&2
    exit 1
  fi
  echo "deps.sh: pip installing $req" >&2
  export PIP_ROOT_USER_ACTION=ignore
  python3 -m pip install -q -r "$req" </dev/null 2>/dev/null ||
    python3 -m pip install -q --break-system-packages -r "$req" </dev/null
}

if [ "${#missing[@]}" -eq 0 ]; then
  pip_requirements
  check_cmake_version
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "deps.sh: missing packages: ${missing[*]}" >&2
  echo "deps.sh: this script installs them with apt-get (Debian/Ubuntu); install the equivalents by hand." >&2
  exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "deps.sh: missing packages: ${missing[*]}" >&2
  echo "Install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if [[ " ${missing[*]} " == *" tshark "* ]] && command -v debconf-set-selections >/dev/null 2>&1; then
  # wireshark-common asks whether non-root users may capture: answer no, never block.
  echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
fi
apt_opts=(-y -q -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=300 --no-install-recommends)

lists_usable() {
  # Usable when the package lists exist and every missing package has an
  # install candidate in them (fresh containers ship without lists).
  local p
  for p in "${missing[@]}"; do
    apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [^(]' || return 1
  done
}

if ! lists_usable; then
  apt-get update -q </dev/null
fi
if ! apt-get install "${apt_opts[@]}" "${missing[@]}" </dev/null; then
  # A mirror may have moved on since the lists were read: refresh once, retry.
  apt-get update -q </dev/null
  apt-get install "${apt_opts[@]}" "${missing[@]}" </dev/null
fi

still=()
for p in "${missing[@]}"; do
  dpkg_installed "$p" || provided_otherwise "$p" || still+=("$p")
done
if [ "${#still[@]}" -ne 0 ]; then
  echo "deps.sh: still missing after apt-get install: ${still[*]}" >&2
  exit 1
fi
pip_requirements
check_cmake_version
