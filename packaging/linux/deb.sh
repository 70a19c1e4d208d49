#!/usr/bin/env bash
# Wraps the PyInstaller folder dist/proto-studio as dist/proto-studio_<version>_<arch>.deb with
# Debian's own tools (dpkg-shlibdeps works out Depends, dpkg-deb builds), and the same folder as
# dist/proto-studio-<version>-linux-<machine>.tar.gz. packaging/build.sh deb runs it after the
# folder's checks passed. Usage: packaging/linux/deb.sh VERSION
set -euo pipefail
cd "$(dirname "$0")/../.."
version="$1"
arch=$(dpkg --print-architecture)
here=packaging/linux
stage=build/deb
maintainer="Proto Studio maintainers <maintainers@users.noreply.a-seed-f7c69eb9.example>"
root="$stage/debian/proto-studio"
rm -rf "$stage"
mkdir -p "$root/opt" "$root/usr/bin" "$root/DEBIAN"

# The application, its command, desktop entry, file type, icons, manual and documentation.
cp -a dist/proto-studio "$root/opt/proto-studio"
ln -s /opt/proto-studio/proto-studio "$root/usr/bin/proto-studio"  # across top-level folders
install -Dm644 "$here/proto-studio.desktop" "$root/usr/share/applications/proto-studio.desktop"
install -Dm644 "$here/proto-studio.xml" "$root/usr/share/mime/packages/proto-studio.xml"
(cd build/icons/hicolor && find . -type f) | while read -r icon; do
  install -Dm644 "build/icons/hicolor/$icon" "$root/usr/share/icons/hicolor/$icon"
done
install -d "$root/usr/share/man/man1" "$root/usr/share/doc/proto-studio"
gzip -9n < "$here/proto-studio.1" > "$root/usr/share/man/man1/proto-studio.1.gz"
# A native package's changelog.gz is in Debian's format: one entry pointing at the project's.
when=$(git log -1 --format=%cD 2>/dev/null || date -R)
printf '%s\n' "proto-studio ($version) unstable; urgency=medium" "" \
  "  * Proto Studio $version; its changes are in CHANGELOG.md.gz next to this file." "" \
  " -- $maintainer  $when" | gzip -9n > "$root/usr/share/doc/proto-studio/changelog.gz"
gzip -9n < CHANGELOG.md > "$root/usr/share/doc/proto-studio/CHANGELOG.md.gz"
install -m644 "$here/copyright" "$root/usr/share/doc/proto-studio/copyright"
install -Dm644 "$here/lintian-overrides" "$root/usr/share/lintian/overrides/proto-studio"
install -m755 "$here/postinst" "$here/postrm" "$root/DEBIAN/"

# Plain permissions: directories and executables 755, everything else (libraries too) 644.
find "$root" -path "$root/DEBIAN" -prune -o -type d -exec chmod 755 {} +
find "$root/opt" -type f -exec chmod 644 {} +
chmod 755 "$root/opt/proto-studio/proto-studio"
find "$root/opt" -type f -path '*/binaries/adb' -exec chmod 755 {} +

# Depends: the system libraries the bundled binaries link (the bundle leaves them out).
elves=()
while IFS= read -r -d '' file; do
  [ "$(head -c 4 "$file" | od -An -c | tr -d ' ')" = "177ELF" ] && elves+=("${file#"$stage"/}")
done < <(find "$root/opt" -type f -print0)
printf 'Source: proto-studio\n\nPackage: proto-studio\nArchitecture: any\n' > "$stage/debian/control"
shlibs=$(cd "$stage" && dpkg-shlibdeps -O --ignore-missing-info --warnings=0 \
           "${elves[@]/#/-e}" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "build: dpkg-shlibdeps found no dependencies for the bundle" >&2; exit 1; }
rm "$stage/debian/control"

size=$(du -sk --apparent-size "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: proto-studio
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $shlibs
Recommends: fonts-dejavu-core | fonts-freefont-ttf, xdg-desktop-portal
Section: devel
Priority: optional
Description: author mobile app prototypes with an AI agent
 Proto Studio is a desktop app for designers who build mobile app
 prototypes (AutoMobile prototype specs) with an AI agent: ask for a change,
 review the draft before it applies, try the prototype live in a Material 3
 preview, and show it on a plugged-in Android phone with its screen mirrored.
 .
 The application is self-contained in /opt/proto-studio (Python, Qt and
 FFmpeg included); its libraries and prototypes live in the user's folders.
CONTROL
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) \
  > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

deb="dist/proto-studio_${version}_${arch}.deb"
rm -f "$deb"
# gzip by default (a fifth of xz's time, which CI feels; lintian refuses zstd); release builds
# set PROTO_STUDIO_DEB_COMPRESSION="-Zxz -z9" for a smaller download.
# shellcheck disable=SC2086  # the variable holds dpkg-deb's options
dpkg-deb --root-owner-group ${PROTO_STUDIO_DEB_COMPRESSION:--Zgzip -z6} --build "$root" "$deb" >/dev/null
tarball="dist/proto-studio-${version}-linux-$(uname -m).tar.gz"
tar -C dist --owner=0 --group=0 --sort=name -czf "$tarball" proto-studio
echo "build: $deb ($(du -h "$deb" | cut -f1)), $tarball ($(du -h "$tarball" | cut -f1))"
