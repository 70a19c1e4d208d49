#!/usr/bin/env bash
# macOS (not runnable on Linux): checks dist/Proto Studio.app, signs it when MACOS_SIGN_IDENTITY
# is set (hardened runtime, packaging/macos/entitlements.plist), notarizes it when APPLE_ID,
# APPLE_TEAM_ID and APPLE_APP_PASSWORD are set, and writes
# dist/ProtoStudio-<version>-macos-<arch>.dmg (the app and a link to /Applications).
# packaging/build.sh dmg runs it after the folder's checks. Usage: packaging/macos/dmg.sh VERSION
set -euo pipefail
cd "$(dirname "$0")/../.."
version="$1"
fail() { echo "build: $*" >&2; exit 1; }
app="dist/Proto Studio.app"
[ -d "$app" ] || fail "$app is missing (the spec builds it on macOS)"

# The .app's own copy passes the smoke test too (its layout differs from the folder's).
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
out=$(PROTO_STUDIO_HOME="$home" QT_QPA_PLATFORM=offscreen "$app/Contents/MacOS/proto-studio-cli" --smoke-test 2>&1) \
  || { echo "$out" >&2; fail "the smoke test of $app failed"; }
echo "$out" | grep -qx "smoke ok" || { echo "$out" >&2; fail "the smoke test of $app printed no 'smoke ok'"; }

if [ -n "${MACOS_SIGN_IDENTITY:-}" ]; then
  codesign --force --deep --timestamp --options runtime \
    --entitlements packaging/macos/entitlements.plist --sign "$MACOS_SIGN_IDENTITY" "$app" \
    || fail "codesign could not sign $app with '$MACOS_SIGN_IDENTITY'"
  codesign --verify --deep --strict "$app" || fail "codesign does not accept the signed $app"
  echo "build: signed $app"
else
  echo "build: MACOS_SIGN_IDENTITY is not set: $app keeps PyInstaller's ad-hoc signature (Gatekeeper will warn)"
fi

dmg="dist/ProtoStudio-${version}-macos-$(uname -m).dmg"
staging=build/dmg
rm -rf "$staging" "$dmg"
mkdir -p "$staging"
cp -R "$app" "$staging/"
ln -s /Applications "$staging/Applications"
hdiutil create -volname "Proto Studio $version" -srcfolder "$staging" -ov -format UDZO "$dmg" >/dev/null \
  || fail "hdiutil could not write $dmg"

if [ -n "${MACOS_SIGN_IDENTITY:-}" ]; then
  codesign --force --timestamp --sign "$MACOS_SIGN_IDENTITY" "$dmg" || fail "codesign could not sign $dmg"
fi
if [ -n "${MACOS_SIGN_IDENTITY:-}" ] && [ -n "${APPLE_ID:-}" ] && [ -n "${APPLE_TEAM_ID:-}" ] && [ -n "${APPLE_APP_PASSWORD:-}" ]; then
  xcrun notarytool submit "$dmg" --apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" \
    --password "$APPLE_APP_PASSWORD" --wait || fail "Apple's notary service refused $dmg (see above)"
  xcrun stapler staple "$dmg" || fail "could not staple the notarization ticket to $dmg"
  echo "build: notarized $dmg"
else
  echo "build: APPLE_ID/APPLE_TEAM_ID/APPLE_APP_PASSWORD (and a signing identity) are not all set: $dmg is not notarized"
fi
echo "build: $dmg ($(du -h "$dmg" | cut -f1))"
