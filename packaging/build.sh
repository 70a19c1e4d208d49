#!/usr/bin/env bash
# Builds the one-folder app (dist/proto-studio/) with PyInstaller, then runs its smoke test
# offscreen. Exits non-zero when the build or the smoke test fails.
# Usage: packaging/build.sh   (needs the `package` extra: pip install -e '.[package]')
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
"$PY" -m PyInstaller --version >/dev/null 2>&1 || {
  echo "build: PyInstaller is missing (install the 'package' extra: $PY -m pip install -e '.[package]')" >&2
  exit 2
}
start=$(date +%s)
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/proto-studio.spec
echo "build: dist/proto-studio built in $(( $(date +%s) - start )) s ($(du -sh dist/proto-studio | cut -f1))"

# Smoke test: a fresh user folder, the offscreen platform, a template opened and painted.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
out=$(PROTO_STUDIO_HOME="$home" QT_QPA_PLATFORM=offscreen timeout 120 \
      dist/proto-studio/proto-studio --smoke-test 2>&1) || {
  echo "$out" >&2
  echo "build: smoke test of dist/proto-studio failed" >&2
  exit 1
}
echo "$out" | grep -qx "smoke ok" || { echo "$out" >&2; echo "build: smoke test printed no 'smoke ok'" >&2; exit 1; }
# A headless subcommand works from the bundle too (resources found in the bundle).
PROTO_STUDIO_HOME="$home" dist/proto-studio/proto-studio validate resources/templates/feed.json >/dev/null
echo "build: smoke ok"
