#!/usr/bin/env bash
# Installs the Debian package the way a user does and starts the app the way the desktop menu does.
# Usage: tests/packaging/install_test.sh BUILD_DIR
# Needs root and apt (exit 77, "skipped", otherwise). Leaves the .deb, lintian's report and a screenshot of the
# window launched from the installed desktop entry in BUILD_DIR/install-test/.
set -euo pipefail
build=$(cd "${1:?BUILD_DIR}" && pwd)
out="$build/install-test"
app_id=io.github.asyncscope.AsyncScope

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "install test: skipped, needs root and apt-get"
    exit 77
fi
rm -rf "$out" && mkdir -p "$out"
pkg_installed() { dpkg-query -W -f='${Status}' asyncscope 2>/dev/null | grep -q "install ok installed"; }
cleanup() {
    [ -n "${app_pid:-}" ] && kill "$app_pid" 2>/dev/null || true
    [ -n "${xvfb_pid:-}" ] && kill "$xvfb_pid" 2>/dev/null || true
    if pkg_installed; then apt-get remove --purge -y -qq asyncscope >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

echo "== building the package"
(cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; exit 1; }
deb=$(ls "$out"/asyncscope_*_amd64.deb)
dpkg-deb --field "$deb"

echo "== lintian"
lintian --fail-on error --tag-display-limit 0 "$deb" 2>&1 | { grep -v "running with root privileges" || true; } | tee "$out/lintian.txt"
echo "lintian: no errors ($(grep -c "^W:" "$out/lintian.txt" || true) warnings)"

echo "== installing with apt"
apt-get install -y -qq "$deb" >"$out/apt.log" 2>&1 || { cat "$out/apt.log"; exit 1; }
for f in /usr/bin/asyncscope /usr/bin/asyncscope-cli \
         /usr/share/applications/$app_id.desktop /usr/share/metainfo/$app_id.metainfo.xml \
         /usr/share/icons/hicolor/scalable/apps/$app_id.svg /usr/share/icons/hicolor/256x256/apps/$app_id.png \
         /usr/share/icons/hicolor/16x16/apps/$app_id.png \
         /usr/share/man/man1/asyncscope.1.gz /usr/share/man/man1/asyncscope-cli.1.gz \
         /usr/share/doc/asyncscope/copyright; do
    [ -e "$f" ] || { echo "missing after install: $f"; exit 1; }
done
desktop-file-validate /usr/share/applications/$app_id.desktop
appstreamcli validate --no-net --pedantic /usr/share/metainfo/$app_id.metainfo.xml || \
    appstreamcli validate --no-net /usr/share/metainfo/$app_id.metainfo.xml
version=$(dpkg-query -W -f='${Version}' asyncscope)
/usr/bin/asyncscope-cli --version | grep -qx "asyncscope-cli $version"
QT_QPA_PLATFORM=offscreen /usr/bin/asyncscope --version 2>/dev/null | grep -qx "AsyncScope $version"
grep -q "release version=\"$version\"" /usr/share/metainfo/$app_id.metainfo.xml
echo "version $version everywhere"

echo "== launching through the desktop entry under Xvfb"
exec_line=$(sed -n 's/^Exec=//p' /usr/share/applications/$app_id.desktop | sed 's/ *%[fFuUdDnNickvm]//g')
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
export HOME="$out/home" XDG_CONFIG_HOME="$out/home/.config" XDG_RUNTIME_DIR="$out/runtime"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
for _ in $(seq 50); do DISPLAY=$display xdpyinfo >/dev/null 2>&1 && break; sleep 0.2; done
(cd "$HOME" && unset QT_QPA_PLATFORM && DISPLAY=$display exec sh -c "$exec_line") >"$out/app.log" 2>&1 &
app_pid=$!
found=
for _ in $(seq 100); do
    if DISPLAY=$display xwininfo -root -tree 2>/dev/null | grep -q '"AsyncScope"'; then found=1; break; fi
    sleep 0.2
done
[ -n "$found" ] || { echo "no window titled AsyncScope appeared"; cat "$out/app.log"; exit 1; }
sleep 2  # let discovery answer and the window paint
DISPLAY=$display import -window root "$out/installed-window.png"
echo "window 'AsyncScope' appeared; screenshot: $out/installed-window.png"
kill "$app_pid"; wait "$app_pid" 2>/dev/null || true; app_pid=

echo "== uninstalling"
apt-get remove --purge -y -qq asyncscope >"$out/remove.log" 2>&1
for f in /usr/bin/asyncscope /usr/bin/asyncscope-cli /usr/share/applications/$app_id.desktop; do
    [ ! -e "$f" ] || { echo "left behind after removal: $f"; exit 1; }
done
echo "install test passed"
