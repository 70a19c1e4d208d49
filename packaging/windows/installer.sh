#!/usr/bin/env bash
# Windows, in Git Bash (not runnable on Linux): signs the executables when WINDOWS_CERT_FILE
# (a .pfx) and WINDOWS_CERT_PASSWORD are set, compiles packaging/windows/proto-studio.iss with
# Inno Setup into dist/ProtoStudioSetup-<version>.exe and signs that too. packaging/build.sh
# windows runs it after the folder's checks. Usage: packaging/windows/installer.sh VERSION
set -euo pipefail
cd "$(dirname "$0")/../.."
version="$1"
fail() { echo "build: $*" >&2; exit 1; }
signtool="${SIGNTOOL:-signtool}"
sign() {  # sign FILE...
  if [ -n "${WINDOWS_CERT_FILE:-}" ] && [ -n "${WINDOWS_CERT_PASSWORD:-}" ]; then
    MSYS2_ARG_CONV_EXCL='*' "$signtool" sign /fd SHA256 /td SHA256 \
      /tr "${WINDOWS_TIMESTAMP_URL:-http://timestamp.digicert.com}" \
      /f "$WINDOWS_CERT_FILE" /p "$WINDOWS_CERT_PASSWORD" "$@" || fail "signtool could not sign $*"
  fi
}
[ -f dist/proto-studio/proto-studio.exe ] || fail "dist/proto-studio/proto-studio.exe is missing (packaging/build.sh windows builds it)"
sign dist/proto-studio/proto-studio.exe dist/proto-studio/proto-studio-cli.exe
MSYS2_ARG_CONV_EXCL='*' iscc /Q "/DAppVersion=$version" 'packaging\windows\proto-studio.iss' \
  || fail "Inno Setup could not compile packaging/windows/proto-studio.iss (above)"
setup="dist/ProtoStudioSetup-$version.exe"
[ -f "$setup" ] || fail "Inno Setup wrote no $setup"
sign "$setup"
if [ -z "${WINDOWS_CERT_FILE:-}" ]; then
  echo "build: WINDOWS_CERT_FILE is not set: $setup is not signed (SmartScreen will warn)"
fi
echo "build: $setup ($(du -h "$setup" | cut -f1))"
