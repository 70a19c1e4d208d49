#!/usr/bin/env bash
# Builds Proto Studio's installers from packaging/proto-studio.spec (PyInstaller, one folder) and
# checks them. Any failure ends with one line (`build: ...`) saying what failed and how to fix it.
#
#   packaging/build.sh           dist/proto-studio, its size against the limit, its smoke test
#                                (preview, icon font, an H.264 decode, licences) and a CLI command
#   packaging/build.sh deb       the same, then dist/proto-studio_<version>_<arch>.deb and
#                                dist/proto-studio-<version>-linux-<machine>.tar.gz, checked with
#                                desktop-file-validate and lintian when they are installed
#   packaging/build.sh check     the checks again on the dist/proto-studio already built
#   packaging/build.sh dmg       macOS: dist/ProtoStudio-<version>.dmg (signed and notarized when
#                                MACOS_SIGN_IDENTITY / APPLE_* are set; release.yml runs it)
#   packaging/build.sh windows   Windows: dist/ProtoStudioSetup-<version>.exe (Inno Setup; signed
#                                when WINDOWS_CERT_* are set; release.yml runs it)
#
# Needs the `package` extra (PyInstaller); on Linux also binutils, patchelf and icu-devtools,
# and for `deb` dpkg-dev (scripts/system-deps --tests installs them all as root).
# PROTO_STUDIO_MAX_MB sets the size limit (default 200 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-folder}"
case "$mode" in folder|deb|check|dmg|windows) ;; *)
  echo "build: unknown mode '$mode' (folder, deb, check, dmg or windows)" >&2; exit 2 ;;
esac
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=macos ;;
  MINGW*|MSYS*|CYGWIN*) os=windows ;;
  *) os=other ;;
esac
if [ "$os" = windows ]; then PY="${PYTHON:-.venv/Scripts/python.exe}"; else PY="${PYTHON:-.venv/bin/python}"; fi
started=$(date +%s)

fail() { echo "build: $*" >&2; exit 1; }
need() {  # need TOOL HOW-TO-INSTALL: fails with one line when TOOL is not on the PATH
  command -v "$1" >/dev/null 2>&1 || fail "$1 is missing ($2)"
}
debian_tool() { echo "install it as root: apt-get install $1, or scripts/system-deps --tests"; }
bounded() {  # bounded SECONDS COMMAND...: GNU timeout where there is one (macOS has none)
  if command -v timeout >/dev/null 2>&1; then timeout "$@"; else shift; "$@"; fi
}

# --- tools first: a missing one fails before anything is built ---------------------------------
[ -x "$PY" ] || command -v "$PY" >/dev/null 2>&1 \
  || fail "no Python at $PY (create the venv: scripts/venv test,package, or set PYTHON)"
"$PY" -m PyInstaller --version >/dev/null 2>&1 \
  || fail "PyInstaller is missing (install the 'package' extra: $PY -m pip install -e '.[package]')"
if [ "$os" = linux ] && [ "$mode" != check ]; then
  for tool in strip objcopy ld as readelf; do need "$tool" "$(debian_tool binutils)"; done
  need patchelf "$(debian_tool patchelf)"
  need icupkg "$(debian_tool icu-devtools)"
fi
case "$mode" in
  deb)
    [ "$os" = linux ] || fail "a .deb is built on Debian or Ubuntu (this is $(uname -s))"
    need dpkg-deb "$(debian_tool dpkg)"
    need dpkg-shlibdeps "$(debian_tool dpkg-dev)"
    need gzip "$(debian_tool gzip)" ;;
  dmg)
    [ "$os" = macos ] || fail "a .dmg is built on macOS (this is $(uname -s)); see docs/packaging.md"
    need hdiutil "it comes with macOS" ;;
  windows)
    [ "$os" = windows ] || fail "the Windows installer is built on Windows (this is $(uname -s)); see docs/packaging.md"
    need iscc "install Inno Setup 6 and put iscc on the PATH: choco install innosetup" ;;
esac

# --- the one-folder build ----------------------------------------------------------------------
if [ "$mode" != check ]; then
  mkdir -p build
  log=build/pyinstaller.log
  t0=$(date +%s)
  if ! "$PY" -m PyInstaller --noconfirm --log-level WARN --distpath dist \
       --workpath build/pyinstaller packaging/proto-studio.spec >"$log" 2>&1; then
    # The spec's own refusals (a stale install, a trim step) are one `build:` line already.
    reason=$(grep -E '^(SystemExit: )?build: ' "$log" | tail -n 1 | sed 's/^SystemExit: //')
    [ -n "$reason" ] && { echo "$reason" >&2; exit 1; }
    tail -n 30 "$log" >&2
    fail "PyInstaller failed (the whole log: $log)"
  fi
  echo "build: dist/proto-studio built in $(( $(date +%s) - t0 )) s"
fi
[ -d dist/proto-studio ] || fail "dist/proto-studio does not exist (build it: packaging/build.sh)"

# --- checks on the folder: size, smoke test, a subcommand ---------------------------------------
"$PY" packaging/size.py dist/proto-studio build/pyinstaller/trim-report.json || exit 1

case "$os" in
  windows) app=dist/proto-studio/proto-studio-cli.exe ;;   # the console twin prints
  macos) app=dist/proto-studio/proto-studio-cli ;;
  *) app=dist/proto-studio/proto-studio ;;
esac
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
t0=$(date +%s)
if ! out=$(PROTO_STUDIO_HOME="$home" QT_QPA_PLATFORM=offscreen bounded 180 "$app" --smoke-test 2>&1); then
  echo "$out" >&2
  fail "the smoke test of $app failed (its last line above says which check)"
fi
echo "$out" | grep -qx "smoke ok" || { echo "$out" >&2; fail "the smoke test of $app printed no 'smoke ok'"; }
echo "$out" | grep '^smoke ' | sed 's/^/build: /'
echo "build: smoke test passed in $(( $(date +%s) - t0 )) s"
PROTO_STUDIO_HOME="$home" "$app" validate resources/templates/feed.json >/dev/null \
  || fail "'$app validate' failed on resources/templates/feed.json"
version=$("$app" --version | awk '{print $2}')
[ -n "$version" ] || fail "$app --version printed no version"

# --- installers --------------------------------------------------------------------------------
case "$mode" in
  deb)
    t0=$(date +%s)
    packaging/linux/deb.sh "$version"
    deb="dist/proto-studio_${version}_$(dpkg --print-architecture).deb"
    if command -v desktop-file-validate >/dev/null 2>&1; then
      desktop-file-validate packaging/linux/proto-studio.desktop \
        || fail "desktop-file-validate rejects packaging/linux/proto-studio.desktop (above)"
      echo "build: desktop-file-validate: packaging/linux/proto-studio.desktop is valid"
    else
      echo "build: desktop-file-validate is not installed; the desktop entry was not checked"
    fi
    if command -v lintian >/dev/null 2>&1; then
      lint=$(lintian --fail-on error,warning \
             "$deb" 2>&1) || { echo "$lint" >&2; fail "lintian reports problems in $deb (above)"; }
      echo "build: lintian: no errors or warnings beyond packaging/linux/lintian-overrides"
    else
      echo "build: lintian is not installed; $deb was not checked"
    fi
    echo "build: packaged in $(( $(date +%s) - t0 )) s" ;;
  dmg) packaging/macos/dmg.sh "$version" ;;
  windows) packaging/windows/installer.sh "$version" ;;
esac
echo "build: ok ($mode, version $version, $(( $(date +%s) - started )) s)"
