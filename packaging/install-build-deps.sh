#!/usr/bin/env bash
# Installs what building and testing AsyncScope needs on Debian 12, from Debian's packages, skipping what is
# already there. Run as root. The CUDA toolkit (12.0 or newer, 13.0 tested) is not a Debian 12 package: it is
# expected at /usr/local/cuda (NVIDIA's installer or repository puts it there).
set -euo pipefail

packages=(
    cmake ninja-build g++ pkg-config file
    qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev qt6-qpa-plugins libgl-dev
    libgtest-dev libcli11-dev nlohmann-json3-dev libsimdjson-dev
    xvfb xauth x11-utils x11-apps imagemagick fontconfig fonts-dejavu-core
    desktop-file-utils appstream lintian dpkg-dev
    slurm-wlm munge strace
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "install-build-deps: missing packages: ${missing[*]}; run this script as root" >&2
        exit 1
    fi
    echo "install-build-deps: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null; then
    echo "install-build-deps: no CUDA toolkit: install CUDA 13.0 (or 12.x) from NVIDIA so that /usr/local/cuda/bin/nvcc exists" >&2
    exit 1
fi
