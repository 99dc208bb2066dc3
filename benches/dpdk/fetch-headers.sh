#!/usr/bin/env bash
# Fetches DPDK's headers (Debian's libdpdk-dev, DPDK 22.11) into a
# git-ignored folder, for the side-by-side comparator in benches/dpdk.
# Nothing is installed: `apt-get download` fetches the .deb and `dpkg -x`
# unpacks it, so none of DPDK's dependencies are needed. DPDK's files are
# never committed.
#
#   bash benches/dpdk/fetch-headers.sh          # -> benches/dpdk/headers/
#   DPDK_ROOT=/some/dir bash benches/dpdk/fetch-headers.sh
#
# Idempotent: with the headers already there it only prints where they are.
# Runs `apt-get update` first (as root) when apt knows no libdpdk-dev.
# Exits non-zero, loudly, when the package cannot be fetched (no network,
# not a Debian/Ubuntu system): CI must not skip the comparator silently.
# The one line on stdout is the root to give the build as DPDK_ROOT;
# everything else (apt's progress included) goes to stderr.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=${DPDK_ROOT:-$here/headers}
header=$root/usr/include/x86_64-linux-gnu/dpdk/rte_memcpy.h

if [[ ! -f $header ]]; then
    command -v apt-get >/dev/null || { echo "fetch-headers: no apt-get: fetch libdpdk-dev 22.11 by hand and unpack it into $root" >&2; exit 1; }
    if ! apt-cache show libdpdk-dev >/dev/null 2>&1; then
        echo "fetch-headers: apt knows no libdpdk-dev; running apt-get update" >&2
        apt-get update -qq >&2
    fi
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root libdpdk-dev >&2) || {
        echo "fetch-headers: apt-get download libdpdk-dev FAILED (network? sources.list?)" >&2
        exit 1
    }
    mkdir -p "$root"
    dpkg -x "$tmp"/libdpdk-dev_*.deb "$root"
    [[ -f $header ]] || { echo "fetch-headers: unpacked, but $header is missing" >&2; exit 1; }
    echo "fetch-headers: unpacked $(basename "$tmp"/libdpdk-dev_*.deb)" >&2
fi
echo "DPDK headers: -I $root/usr/include/x86_64-linux-gnu/dpdk -I $root/usr/include/dpdk" >&2
echo "$root"
