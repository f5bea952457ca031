#!/usr/bin/env bash
# Makes the portable bundle: a relocatable folder and tarball holding asyncscope and asyncscope-cli (with the
# injection library of `asyncscope-cli record`, built beside the CLI), the Qt
# libraries and plugins they load (offscreen and xcb platforms, SVG and JPEG images, SVG icons), CUPTI, fonts with a
# fontconfig file, and launchers that set the paths. It runs on Linux x86-64 with glibc 2.36 or newer and no Qt
# installed; the NVIDIA driver is the only other need.
#
# Usage: packaging/make_bundle.sh APP CLI VERSION OUTPUT_DIR [CUDA_MAJOR [CUDA_ROOT]]
#   APP, CLI   the built asyncscope and asyncscope-cli
#   OUTPUT_DIR receives asyncscope-VERSION-linux-x86_64/ and asyncscope-VERSION-linux-x86_64.tar.gz
#   CUDA_MAJOR the major version of the CUDA runtime they link (13 when not given): CUPTI of that major is bundled,
#              the one the engine loads
#   CUDA_ROOT  the toolkit (CUDA_HOME, else /usr/local/cuda, when not given)
set -euo pipefail

app=$1 cli=$2 version=$3 out=$4 cuda_major=${5:-13}
name="asyncscope-$version-linux-x86_64"
root="$out/$name"
qt_plugins=$(dirname "$(find /usr/lib -path '*qt6/plugins/platforms/libqoffscreen.so' | head -n 1)")/..
[ -d "$qt_plugins/platforms" ] || { echo "make_bundle: no Qt 6 plugins found" >&2; exit 1; }

rm -rf "$root" "$out/$name.tar.gz"
mkdir -p "$root/bin" "$root/lib/gl-fallback" "$root/plugins" "$root/fonts" "$root/etc"
install -m 755 "$app" "$root/bin/asyncscope"
install -m 755 "$cli" "$root/bin/asyncscope-cli"
strip --strip-unneeded "$root/bin/asyncscope" "$root/bin/asyncscope-cli"
# What `record` names in a program's CUDA_INJECTION64_PATH; found in lib/ beside bin/. No dependency but the C library.
inject="$(dirname "$cli")/libasyncscope-inject.so"
[ -f "$inject" ] || { echo "make_bundle: no $inject: build the asyncscope_inject target" >&2; exit 1; }
install -m 755 "$inject" "$root/lib/libasyncscope-inject.so"
strip --strip-unneeded "$root/lib/libasyncscope-inject.so"

plugins=(platforms/libqoffscreen.so platforms/libqxcb.so imageformats/libqsvg.so imageformats/libqjpeg.so
    iconengines/libqsvgicon.so xcbglintegrations/libqxcb-glx-integration.so)
for p in "${plugins[@]}"; do
    [ -f "$qt_plugins/$p" ] || continue
    mkdir -p "$root/plugins/$(dirname "$p")"
    install -m 644 "$qt_plugins/$p" "$root/plugins/$p"
done

# Every shared library they load, except the C runtime every target has. The GL dispatch libraries (glvnd) go to
# a fallback folder that the launcher uses only when the system has none: a system's own must win.
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libstdc\+\+\.so|libgcc_s\.so)'
gl='^(libGL\.so|libGLX\.so|libOpenGL\.so|libGLdispatch\.so|libEGL\.so)'
{ ldd "$app"; ldd "$cli"; find "$root/plugins" -name '*.so' -exec ldd {} \;; } | awk '$3 ~ /^\// {print $1, $3}' | sort -u |
while read -r soname path; do
    [[ $soname =~ $skip ]] && continue
    if [[ $soname =~ $gl ]]; then dest="$root/lib/gl-fallback"; else dest="$root/lib"; fi
    [ -e "$dest/$soname" ] || install -m 644 "$(readlink -f "$path")" "$dest/$soname"
done
strip --strip-unneeded "$root"/lib/*.so* "$root"/lib/gl-fallback/*.so* 2>/dev/null || true

# CUPTI, for the timeline's optional CUPTI source: loaded at run time from lib/, never linked (redistributable
# under the CUDA Toolkit's licence). Without it the bundle still works and the timeline says why it keeps to events.
cuda=${6:-${CUDA_HOME:-/usr/local/cuda}}
soname=libcupti.so.$cuda_major
cupti=$(ls "$cuda"/extras/CUPTI/lib64/"$soname" "$cuda"/lib64/"$soname" "$cuda"/lib/"$soname" \
    "$cuda"/targets/x86_64-linux/lib/"$soname" 2>/dev/null | head -n 1 || true)
if [ -n "$cupti" ]; then
    install -m 644 "$(readlink -f "$cupti")" "$root/lib/$soname"
else
    echo "make_bundle: no $soname under $cuda: the bundle's timeline will use CUDA events only" >&2
fi

for f in DejaVuSans.ttf DejaVuSans-Bold.ttf DejaVuSansMono.ttf; do
    install -m 644 "/usr/share/fonts/truetype/dejavu/$f" "$root/fonts/$f"
done
cat >"$root/etc/fonts.conf" <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir prefix="relative">../fonts</dir>
  <dir>/usr/share/fonts</dir>
  <cachedir prefix="xdg">asyncscope-fontconfig</cachedir>
  <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <alias><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
</fontconfig>
CONF
printf '[Paths]\nPrefix = ..\nPlugins = plugins\n' >"$root/bin/qt.conf"

cat >"$root/asyncscope" <<'LAUNCH'
#!/bin/sh
# AsyncScope portable launcher: bundled Qt, plugins and fonts. With no display, the offscreen platform is used.
here=$(cd "$(dirname "$0")" && pwd)
libs="$here/lib"
if ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libOpenGL\.so\.0'; then libs="$libs:$here/lib/gl-fallback"; fi
export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_PLUGIN_PATH="$here/plugins"
export FONTCONFIG_FILE="$here/etc/fonts.conf"
if [ -z "${QT_QPA_PLATFORM:-}" ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    export QT_QPA_PLATFORM=offscreen
fi
exec "$here/bin/asyncscope" "$@"
LAUNCH
cat >"$root/asyncscope-cli" <<'LAUNCH'
#!/bin/sh
# The CUDA runtime is linked statically; the JSON parser (simdjson) comes from lib/.
here=$(cd "$(dirname "$0")" && pwd)
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/bin/asyncscope-cli" "$@"
LAUNCH
chmod 755 "$root/asyncscope" "$root/asyncscope-cli"
# The Slurm batch script: started from the bundle's folder it submits itself and runs the bundle's CLI on each node.
install -m 755 "$(dirname "$0")/asyncscope-slurm.sbatch" "$root/asyncscope-slurm.sbatch"
cat >"$root/README.txt" <<TXT
AsyncScope $version, portable bundle for Linux x86-64 (glibc 2.36 or newer).
Needs only the NVIDIA driver. Start ./asyncscope (the window; offscreen when there is no display) or
./asyncscope-cli. Headless chart: ./asyncscope --runs 50 --export-png chart.png --screenshot window.png
On a Slurm cluster, with this folder on a file system every node sees: ASYNCSCOPE_NODES=4 ./asyncscope-slurm.sbatch
runs the CLI on every GPU of 4 nodes and merges their records (results/) into one table (asyncscope-JOBID.out).
TXT

tar -C "$out" -czf "$out/$name.tar.gz" "$name"
echo "bundle: $root ($(du -sh "$root" | cut -f1)), $out/$name.tar.gz ($(du -h "$out/$name.tar.gz" | cut -f1))"
